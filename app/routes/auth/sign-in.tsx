import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/sign-in";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Sign in") }];

export default function SignInPage() {
  return <PageTitle>Sign in</PageTitle>;
}
