import { Hash, Lightbulb } from "lucide-react";
import type { ReaderSection } from "../../../server/content/reader.ts";
import { CodeBlock } from "./code-block";
import { ImageFigure } from "./image-figure";

/** One section of a chapter; all text is rendered by React (escaped), code by Shiki. */
export function ChapterSectionView({ section }: { section: ReaderSection }) {
  switch (section.type) {
    case "heading":
      return (
        <h2
          id={section.anchor}
          className="group mt-10 mb-4 scroll-mt-6 text-2xl font-semibold tracking-tight text-fg first:mt-0"
        >
          {section.text}
          <a
            href={`#${section.anchor}`}
            className="ml-2 inline-flex align-middle text-fg-muted opacity-0 transition-opacity group-hover:opacity-100 focus-visible:opacity-100"
          >
            <Hash aria-hidden="true" className="size-5" />
            <span className="sr-only">Link to this section</span>
          </a>
        </h2>
      );
    case "text":
      return (
        <div className="my-4 space-y-4 leading-relaxed text-fg">
          {section.paragraphs.map((paragraph, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity of their own.
            <p key={index} className="whitespace-pre-line">
              {paragraph}
            </p>
          ))}
        </div>
      );
    case "tip":
      return (
        <div
          role="note"
          aria-label="Tip"
          data-testid="tip-callout"
          className="my-6 flex gap-3 rounded-lg border border-accent/40 border-l-4 border-l-accent bg-accent/5 p-4"
        >
          <Lightbulb aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent" />
          <div className="space-y-2 leading-relaxed text-fg">
            <p className="font-semibold text-accent">Tip</p>
            {section.paragraphs.map((paragraph, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity of their own.
              <p key={index} className="whitespace-pre-line">
                {paragraph}
              </p>
            ))}
          </div>
        </div>
      );
    case "list":
      return (
        <ul className="my-4 list-disc space-y-1.5 pl-6 leading-relaxed text-fg marker:text-accent">
          {section.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: list lines have no identity of their own.
            <li key={index}>{item}</li>
          ))}
        </ul>
      );
    case "code":
      return (
        <CodeBlock code={section.code} language={section.language} caption={section.caption} html={section.html} />
      );
    case "image":
      return <ImageFigure image={section} />;
    default:
      return null;
  }
}
