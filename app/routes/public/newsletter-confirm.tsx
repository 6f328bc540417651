import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/newsletter-confirm";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Confirm subscription") }];

export default function NewsletterConfirmPage() {
  return <PageTitle>Confirm subscription</PageTitle>;
}
