import { createContext, type ReactNode, use } from "react";

/**
 * The per-request CSP nonce, provided by entry.server.tsx. Only the server-rendered
 * HTML needs it; on the client it is undefined (browsers hide nonces from the DOM
 * once parsed, so there is nothing to read back).
 */
const NonceContext = createContext<string | undefined>(undefined);

export function NonceProvider({ nonce, children }: { nonce: string; children: ReactNode }) {
  return <NonceContext value={nonce}>{children}</NonceContext>;
}

export function useNonce(): string | undefined {
  return use(NonceContext);
}
