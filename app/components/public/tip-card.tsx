import { ExternalLink } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import type { TipCard } from "../../../server/content/types.ts";
import { isWebUrl } from "./external";
import { STAGGER_CLASS, staggerStyle } from "./stagger";

const CARD = "flex w-full flex-col gap-2 rounded-lg border p-5";

/**
 * A tip: with a url, the whole card is a link opening in a new tab; without one it is
 * dimmed (dashed border, muted title, no hover) and not a link. External cards show an
 * external-link icon, coming-soon cards a "Coming Soon" badge.
 */
export function TipCardView({ tip, index }: { tip: TipCard; index: number }) {
  const linked = isWebUrl(tip.url);
  const body = (
    <>
      <div className="flex items-start justify-between gap-3">
        <h3 className={`font-semibold ${linked ? "text-fg" : "text-fg-muted"}`}>{tip.title}</h3>
        {tip.type === "external" && (
          <ExternalLink
            role="img"
            aria-label="External link"
            data-testid="external-icon"
            className="size-4 shrink-0 text-accent"
          />
        )}
        {tip.type === "coming-soon" && (
          <Badge tone="warning" className="shrink-0 whitespace-nowrap">
            Coming Soon
          </Badge>
        )}
      </div>
      {tip.description && <p className="text-sm leading-relaxed text-fg-muted">{tip.description}</p>}
    </>
  );
  if (linked) {
    return (
      <a
        href={tip.url ?? undefined}
        target="_blank"
        rel="noopener noreferrer"
        data-testid="tip-card"
        style={staggerStyle(index)}
        className={`${CARD} ${STAGGER_CLASS} border-line bg-surface-raised transition-colors hover:border-accent`}
      >
        {body}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  return (
    <div
      data-testid="tip-card"
      data-dimmed="true"
      style={staggerStyle(index)}
      className={`${CARD} ${STAGGER_CLASS} border-dashed border-line bg-transparent`}
    >
      {body}
    </div>
  );
}
