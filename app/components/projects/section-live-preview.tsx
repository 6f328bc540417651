import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { ChapterSectionView } from "~/components/reader/chapter-section";
import { PROJECTS_INTENTS } from "./schemas";
import type { SectionPreviewAnswer } from "./section-preview.server";

/** Typing pauses this long before the preview is asked for. */
const PREVIEW_DELAY_MS = 300;

export interface SectionDraft {
  type: string;
  content: string;
  caption: string;
  language: string;
  alt: string;
}

/**
 * The section being edited, drawn by the public reader's own component from what the
 * server prepares (the action's preview intent: Shiki's highlighting runs there only),
 * asked for once typing pauses. Links inside do not navigate: an image's link would
 * leave the editor with what was typed.
 */
export function SectionLivePreview({ draft }: { draft: SectionDraft }) {
  const fetcher = useFetcher<SectionPreviewAnswer>();
  const titleId = useId();
  const frame = useRef<HTMLDivElement>(null);
  const blank = draft.content.trim() === "";
  const request = JSON.stringify(draft);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per change of the draft, whatever the fetcher's identity.
  useEffect(() => {
    if (blank) return;
    const timer = setTimeout(() => {
      fetcher.submit(
        { intent: PROJECTS_INTENTS.previewSection, ...draft },
        // Nothing was saved: the page's data (and the layout's and root's) need not be loaded again.
        { method: "post", defaultShouldRevalidate: false },
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [request]);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const keepInEditor = (event: MouseEvent) => {
      if ((event.target as Element | null)?.closest("a")) event.preventDefault();
    };
    element.addEventListener("click", keepInEditor);
    return () => element.removeEventListener("click", keepInEditor);
  }, []);

  const answer = fetcher.data;
  const pending = fetcher.state !== "idle";
  return (
    <section aria-labelledby={titleId} className="flex min-w-0 flex-col gap-2">
      <h3 id={titleId} className="text-sm font-medium text-fg">
        Preview
      </h3>
      <div
        ref={frame}
        data-testid="section-preview"
        aria-busy={pending || undefined}
        className="min-h-24 min-w-0 rounded-lg border border-line bg-surface px-4 py-3 sm:px-6"
      >
        {blank ? (
          <PreviewNote>The preview appears here as you type.</PreviewNote>
        ) : !answer ? (
          <PreviewNote>Preparing the preview…</PreviewNote>
        ) : "error" in answer ? (
          <PreviewNote>{answer.error}</PreviewNote>
        ) : answer.section ? (
          <ChapterSectionView section={answer.section} />
        ) : (
          <PreviewNote>This section shows nothing in the reader.</PreviewNote>
        )}
      </div>
    </section>
  );
}

function PreviewNote({ children }: { children: string }) {
  return <p className="py-4 text-sm text-fg-muted">{children}</p>;
}
