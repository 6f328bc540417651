import { ArrowRight, ArrowUpRight, Star } from "lucide-react";
import type { ResourceCard } from "../../../server/content/types.ts";
import { isSitePath, isWebUrl } from "./external";
import { STAGGER_CLASS, staggerStyle } from "./stagger";

/**
 * A library resource: a card linking to its site in a new tab, or to a page of this
 * site (a resource's URL may be a path, "/projects/intro") in the same tab.
 */
export function ResourceCardView({
  resource,
  index,
  featured = false,
}: {
  resource: ResourceCard;
  index: number;
  featured?: boolean;
}) {
  const Heading = featured ? "h3" : "h4";
  const onSite = isSitePath(resource.url);
  const Arrow = onSite ? ArrowRight : ArrowUpRight;
  const body = (
    <>
      <div className="flex items-start justify-between gap-3">
        <Heading className="font-semibold text-fg">{resource.name}</Heading>
        {featured ? (
          <Star aria-hidden="true" className="size-4 shrink-0 text-warning" />
        ) : (
          <Arrow aria-hidden="true" className="size-4 shrink-0 text-accent" />
        )}
      </div>
      {resource.description && <p className="text-sm leading-relaxed text-fg-muted">{resource.description}</p>}
      <p className="mt-auto pt-2 font-mono text-xs text-fg-muted">{hostOf(resource.url)}</p>
    </>
  );
  const className = `${STAGGER_CLASS} flex w-full flex-col gap-2 rounded-lg border border-line bg-surface-raised p-5 ${
    featured ? "border-t-2 border-t-accent" : ""
  }`;
  if (!onSite && !isWebUrl(resource.url)) {
    return (
      <div data-testid="resource-card" style={staggerStyle(index)} className={className}>
        {body}
      </div>
    );
  }
  return (
    <a
      href={resource.url}
      {...(onSite ? {} : { target: "_blank", rel: "noopener noreferrer" })}
      data-testid="resource-card"
      style={staggerStyle(index)}
      className={`${className} transition-colors hover:border-accent`}
    >
      {body}
      {!onSite && <span className="sr-only"> (opens in a new tab)</span>}
    </a>
  );
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host.replace(/^www\./, "") : url;
}
