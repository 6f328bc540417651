import { Eye } from "lucide-react";

/**
 * Above a chapter an editor previews (/projects/<slug>?preview): says that this is a
 * preview, and whether visitors can see the chapter yet.
 */
export function DraftPreviewNotice({ published }: { published: boolean }) {
  return (
    <aside
      aria-label="Preview"
      data-testid="draft-preview-notice"
      data-print="hide"
      className="mb-8 flex items-start gap-3 rounded-lg border border-warning/60 bg-surface-raised px-4 py-3 text-sm text-fg"
    >
      <Eye aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
      <p>
        <strong className="font-semibold">{published ? "Editor preview" : "Draft preview"}</strong>
        {published
          ? ": this chapter is published, and visitors see it as shown here."
          : ": this chapter is not published. Only editors can open this page; visitors get “Page not found” until it is published."}
      </p>
    </aside>
  );
}
