import { createContext, type ReactNode, use } from "react";

/**
 * The per-request CSP nonce. The server gets it from entry.server.tsx. The client
 * reads it back from the document it hydrates: elements React adds later then carry
 * the policy's nonce, and hydration compares equal values (React compares against
 * the `nonce` property, which keeps the value the browser hides from the attribute).
 */
const NonceContext = createContext<string>(nonceOfThisDocument());

export function NonceProvider({ nonce, children }: { nonce: string; children: ReactNode }) {
  return <NonceContext value={nonce}>{children}</NonceContext>;
}

export function useNonce(): string {
  return use(NonceContext);
}

function nonceOfThisDocument(): string {
  if (typeof document === "undefined") return "";
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "";
}
