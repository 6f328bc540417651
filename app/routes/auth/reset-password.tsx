import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Reset password") }];

export default function ResetPasswordPage() {
  return <PageTitle>Reset password</PageTitle>;
}
