import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";

/** How long the copy button shows its copied state (spec: 2 seconds). */
export const COPIED_STATE_MS = 2_000;

export interface CodeBlockProps {
  code: string;
  language: string | null;
  caption: string | null;
  /** Shiki's HTML from the server; null: plain text. */
  html: string | null;
}

/**
 * A code section: Shiki's markup from the server (the only HTML not built by React),
 * an optional caption and, once JavaScript runs, a copy button.
 */
export function CodeBlock({ code, language, caption, html }: CodeBlockProps) {
  return (
    <figure data-testid="code-block" className="group relative my-6 overflow-hidden rounded-lg border border-line">
      <div className="flex items-center justify-between gap-2 border-b border-line bg-surface-raised px-4 py-1.5">
        <span className="font-mono text-xs text-fg-muted">{language ?? "text"}</span>
        <CopyButton code={code} />
      </div>
      {html ? (
        <div
          className="code-block text-sm [&_pre]:overflow-x-auto [&_pre]:p-4"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: Shiki's output escapes the code; nothing else is raw HTML.
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        <pre tabIndex={0} className="overflow-x-auto bg-surface p-4 text-sm text-fg">
          <code>{code}</code>
        </pre>
      )}
      {caption && (
        <figcaption className="border-t border-line bg-surface-raised px-4 py-2 text-sm text-fg-muted">
          {caption}
        </figcaption>
      )}
    </figure>
  );
}

function CopyButton({ code }: { code: string }) {
  // Rendered only once hydrated: without JavaScript the button could do nothing.
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    setReady(true);
    return () => clearTimeout(timer.current);
  }, []);
  if (!ready) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      copyWithSelection(code);
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_STATE_MS);
  }

  return (
    <button
      type="button"
      onClick={copy}
      data-testid="copy-code"
      data-copied={copied ? "true" : undefined}
      data-print="hide"
      className="inline-flex cursor-pointer items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-fg-muted transition-colors hover:bg-surface hover:text-fg"
    >
      {copied ? (
        <Check aria-hidden="true" className="size-3.5 text-accent" />
      ) : (
        <Copy aria-hidden="true" className="size-3.5" />
      )}
      <span aria-live="polite">{copied ? "Copied!" : "Copy"}</span>
      {!copied && <span className="sr-only"> code</span>}
    </button>
  );
}

/** For browsers without the async clipboard API (or without its permission). */
function copyWithSelection(text: string) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}
