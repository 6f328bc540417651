import { publicPageMeta } from "~/components/public/page-meta";
import { ResourceCardView } from "~/components/public/resource-card";
import { PageTitle } from "~/components/site/page-title";
import { servicesContext } from "~/context";
import type { Route } from "./+types/resources";

const DESCRIPTION =
  "Curated cybersecurity resources: learning platforms, tools, news sources and certifications worth your time.";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return { page: await services.content.resources(), origin: services.config.publicOrigin };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? publicPageMeta({ title: "Resources", description: DESCRIPTION, origin: loaderData.origin, path: "/resources" })
    : [];

export default function ResourcesPage({ loaderData }: Route.ComponentProps) {
  const { featured, categories } = loaderData.page;
  return (
    <>
      <header className="max-w-3xl">
        <PageTitle>Resources</PageTitle>
        <p className="mt-4 text-lg leading-relaxed text-fg-muted">{DESCRIPTION}</p>
      </header>

      {featured.length === 0 && categories.length === 0 && (
        <p data-testid="resources-empty" className="mt-12 text-fg-muted">
          No resources found.
        </p>
      )}

      {featured.length > 0 && (
        <section aria-labelledby="featured-title" data-testid="featured-resources" className="mt-12">
          <h2 id="featured-title" className="text-2xl font-semibold tracking-tight text-fg">
            Featured Resources
          </h2>
          <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {featured.map((resource, index) => (
              <li key={resource.id} className="flex">
                <ResourceCardView resource={resource} index={index} featured />
              </li>
            ))}
          </ul>
        </section>
      )}

      {categories.length > 0 && (
        <section aria-labelledby="more-title" data-testid="more-resources" className="mt-14">
          <h2 id="more-title" className="text-2xl font-semibold tracking-tight text-fg">
            More Resources
          </h2>
          <div className="mt-6 space-y-10">
            {categories.map(({ category, resources }) => (
              <section
                key={category}
                aria-labelledby={`resources-${category.toLowerCase()}`}
                data-testid="resource-category"
              >
                <h3
                  id={`resources-${category.toLowerCase()}`}
                  className="border-b border-line pb-2 font-mono text-sm font-semibold tracking-widest text-accent uppercase"
                >
                  {category}
                </h3>
                <ul className="mt-4 grid gap-4 sm:grid-cols-2">
                  {resources.map((resource, index) => (
                    <li key={resource.id} className="flex">
                      <ResourceCardView resource={resource} index={index} />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        </section>
      )}
    </>
  );
}
