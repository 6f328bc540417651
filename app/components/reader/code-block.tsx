import { Check, Copy } from "lucide-react";

export interface CodeBlockProps {
  code: string;
  language: string | null;
  caption: string | null;
  /** Shiki's HTML from the server; null: plain text. */
  html: string | null;
}

/**
 * A code section: Shiki's markup from the server (the only HTML not built by React),
 * an optional caption and, once JavaScript runs, a copy button (shown for 2 seconds in
 * its copied state).
 */
export function CodeBlock({ code, language, caption, html }: CodeBlockProps) {
  return (
    // overflow-hidden keeps the rounded corners; the code's focus outline is drawn inside
    // its edge (-outline-offset-2), where the figure does not clip it.
    <figure
      data-testid="code-block"
      data-code-block
      className="group relative my-6 overflow-hidden rounded-lg border border-line"
    >
      <div className="flex items-center justify-between gap-2 border-b border-line bg-surface-raised px-4 py-1.5">
        <span className="font-mono text-xs text-fg-muted">{language ?? "text"}</span>
        <CopyButton />
      </div>
      {html ? (
        <div
          className="code-block text-sm [&_pre]:overflow-x-auto [&_pre]:p-4 [&_pre:focus-visible]:-outline-offset-2"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: Shiki's output escapes the code; nothing else is raw HTML.
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        <pre tabIndex={0} className="overflow-x-auto bg-surface p-4 text-sm text-fg focus-visible:-outline-offset-2">
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

/**
 * Shown only once the page's script runs (the `js` class on <html>, set by
 * app/enhancements/public-page.js, which does the copying): without JavaScript the
 * button could do nothing.
 */
function CopyButton() {
  return (
    <button
      type="button"
      data-copy-code
      data-testid="copy-code"
      data-print="hide"
      className="hidden cursor-pointer items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-fg-muted transition-colors hover:bg-surface hover:text-fg [.js_&]:inline-flex"
    >
      <Copy aria-hidden="true" data-copy-idle className="size-3.5" />
      <Check aria-hidden="true" data-copy-done className="hidden size-3.5 text-accent" />
      <span aria-live="polite" data-copy-label>
        Copy
      </span>
      <span data-copy-hint className="sr-only">
        {" code"}
      </span>
    </button>
  );
}
