import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/newsletter-unsubscribe";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Unsubscribe") }];

export default function NewsletterUnsubscribePage() {
  return <PageTitle>Unsubscribe</PageTitle>;
}
