import { Cloud, Lightbulb, Radar, Rocket } from "lucide-react";
import { publicPageMeta } from "~/components/public/page-meta";
import { TipCardView } from "~/components/public/tip-card";
import { PageTitle } from "~/components/site/page-title";
import { servicesContext } from "~/context";
import type { TipCategoryBlock } from "../../../server/content/types.ts";
import type { Route } from "./+types/tips";

const DESCRIPTION =
  "Practical tips and tricks from day-to-day security work: Tenable, AWS, general security tips and career advice.";

const CATEGORY_INFO: Record<TipCategoryBlock["category"], { Icon: typeof Cloud; blurb: string }> = {
  Tenable: { Icon: Radar, blurb: "Getting more out of Tenable scans, dashboards and reports." },
  AWS: { Icon: Cloud, blurb: "Hardening and monitoring AWS accounts." },
  "Security Tips": { Icon: Lightbulb, blurb: "Small habits and techniques that raise the bar." },
  Career: { Icon: Rocket, blurb: "Growing a career in cybersecurity." },
};

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return { blocks: await services.content.tips(), origin: services.config.publicOrigin };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? publicPageMeta({ title: "Tips & Tricks", description: DESCRIPTION, origin: loaderData.origin, path: "/blog" })
    : [];

export default function TipsPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <header className="max-w-3xl">
        <PageTitle>Tips & Tricks</PageTitle>
        <p data-testid="tips-intro" className="mt-4 text-lg leading-relaxed text-fg-muted">
          Field notes from real security work: shortcuts, configurations and lessons learned, grouped by topic. Cards
          with an external-link icon open the full article in a new tab.
        </p>
      </header>
      <div className="mt-12 space-y-14">
        {loaderData.blocks.map((block) => {
          const { Icon, blurb } = CATEGORY_INFO[block.category];
          const headingId = `tips-${block.category.toLowerCase().replace(/\s+/g, "-")}`;
          return (
            <section key={block.category} aria-labelledby={headingId} data-testid="tip-category">
              <div className="flex items-center gap-3">
                <span className="flex size-9 items-center justify-center rounded-md border border-line bg-surface-raised">
                  <Icon aria-hidden="true" className="size-5 text-accent" />
                </span>
                <div>
                  <h2 id={headingId} className="text-2xl font-semibold tracking-tight text-fg">
                    {block.category}
                  </h2>
                  <p className="text-sm text-fg-muted">{blurb}</p>
                </div>
              </div>
              {block.tips.length === 0 ? (
                <p className="mt-5 text-sm text-fg-muted">Nothing here yet. New tips are on the way.</p>
              ) : (
                <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  {block.tips.map((tip, index) => (
                    <li key={tip.id} className="flex">
                      <TipCardView tip={tip} index={index} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}
