import { ArrowRight, Mail, ShieldCheck } from "lucide-react";
import { data } from "react-router";
import { safeHref } from "~/components/public/external";
import { NewsletterForm } from "~/components/public/newsletter-form";
import { publicPageMeta } from "~/components/public/page-meta";
import { handleThemeAction } from "~/components/theme/theme-action.server";
import { buttonVariants } from "~/components/ui/button-variants";
import { servicesContext } from "~/context";
import { SITE_DESCRIPTION, SITE_NAME } from "~/lib/meta";
import type { HomeButton } from "../../../server/content/types.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const home = await services.content.home();
  return { home, origin: services.config.publicOrigin };
}

/** The theme toggle's form posts here (see app/components/theme). */
export async function action({ request }: Route.ActionArgs) {
  const response = await handleThemeAction(request);
  if (response) return response;
  throw data(null, { status: 400 });
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? publicPageMeta({
        description: loaderData.home.description ?? SITE_DESCRIPTION,
        origin: loaderData.origin,
        path: "/",
      })
    : [];

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { home } = loaderData;
  return (
    <>
      <section aria-labelledby="hero-title" data-testid="hero" className="relative py-8 sm:py-16">
        {home.tagline && (
          <p
            data-testid="hero-tagline"
            className="inline-flex items-center gap-2 rounded-full border border-line bg-surface-raised px-3 py-1 font-mono text-xs font-medium text-accent sm:text-sm"
          >
            <ShieldCheck aria-hidden="true" className="size-4" />
            {home.tagline}
          </p>
        )}
        <h1
          id="hero-title"
          className="mt-6 max-w-4xl text-4xl font-bold tracking-tight text-balance text-fg sm:text-6xl"
        >
          {home.headline ?? SITE_NAME}
        </h1>
        {home.description && (
          <p data-testid="hero-description" className="mt-6 max-w-2xl text-lg leading-relaxed text-fg-muted">
            {home.description}
          </p>
        )}
        {(home.primaryButton || home.secondaryButton) && (
          <div className="mt-10 flex flex-wrap gap-3">
            {home.primaryButton && (
              <HeroButton button={home.primaryButton} fallback="/projects" variant="primary" testId="hero-primary" />
            )}
            {home.secondaryButton && (
              <HeroButton button={home.secondaryButton} fallback="/blog" variant="secondary" testId="hero-secondary" />
            )}
          </div>
        )}
      </section>

      {home.newsletterVisible && (
        <section
          id="newsletter"
          aria-labelledby="newsletter-title"
          data-testid="newsletter-section"
          className="mt-12 rounded-xl border border-line bg-surface-raised p-6 sm:p-10"
        >
          <div className="flex items-start gap-4">
            <Mail aria-hidden="true" className="mt-1 size-6 shrink-0 text-accent" />
            <div>
              <h2 id="newsletter-title" className="text-2xl font-semibold tracking-tight text-fg">
                Stay in the loop
              </h2>
              <p className="mt-2 max-w-2xl text-fg-muted">
                New chapters, tips and resources, delivered by email when they are published. No spam, unsubscribe at
                any time.
              </p>
              <NewsletterForm />
            </div>
          </div>
        </section>
      )}
    </>
  );
}

function HeroButton({
  button,
  fallback,
  variant,
  testId,
}: {
  button: HomeButton;
  fallback: string;
  variant: "primary" | "secondary";
  testId: string;
}) {
  const href = safeHref(button.link, fallback);
  const className = buttonVariants({ variant, size: "lg" });
  return (
    <a href={href} data-testid={testId} className={className}>
      {button.text}
      {variant === "primary" && href.startsWith("/") && <ArrowRight aria-hidden="true" className="size-4" />}
    </a>
  );
}
