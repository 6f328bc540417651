import { ApiTokenCard } from "~/components/account/api-token-card";
import { accountIntents } from "~/components/account/intents.server";
import { PasskeysCard } from "~/components/account/passkeys-card";
import { PasswordCard } from "~/components/account/password-card";
import { PhoneCard } from "~/components/account/phone-card";
import { ProfileCard } from "~/components/account/profile-card";
import { SessionsCard } from "~/components/account/sessions-card";
import type { AccountDetails } from "~/components/account/shared";
import { TwoFactorCard } from "~/components/account/two-factor-card";
import { withDetails } from "~/components/forms/answer-details.server";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { PageTitle } from "~/components/site/page-title";
import { servicesContext, viewerContext } from "~/context";
import { runFormAction } from "~/lib/form-action.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { loadAccountOverview } from "../../../server/auth/account.ts";
import type { AccountVisitor } from "../../../server/auth/account-changes.ts";
import type { Route } from "./+types/account";

/**
 * The signed-in user's own account: name, password, sessions, two-factor (an
 * authenticator app, or codes by text message), passkeys and API tokens. Every form posts an intent to this route's action; the admin
 * layout's guard has already checked the session and role.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Account");

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  return loadAccountOverview(context.get(servicesContext), viewer.user.id, viewer.session.id);
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const visitor: AccountVisitor = { services, viewer: context.get(viewerContext), request, cookies: [] };
  const details: AccountDetails = {};
  const answer = await runFormAction(await readForm(request), accountIntents(visitor, details), services.logger);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  // Better Auth rotates the session when two-factor is turned on or off, or when other
  // sessions are revoked along with a password change: the browser needs the new cookie.
  for (const cookie of visitor.cookies) headers.append("Set-Cookie", cookie);
  return withDetails(answer, details, headers);
}

export const clientAction = toastActionAnswer;

export default function AccountPage({ loaderData }: Route.ComponentProps) {
  const { user, twoFactor, phone, sessions, passkeys } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div>
        <PageTitle>Account</PageTitle>
        <p className="mt-2 break-words text-fg-muted">
          Signed in as <span className="font-medium text-fg">{user.email}</span>.
        </p>
      </div>
      <ProfileCard name={user.name} email={user.email} />
      <PasswordCard email={user.email} />
      <TwoFactorCard state={twoFactor} email={user.email} />
      <PhoneCard phone={phone} email={user.email} />
      <PasskeysCard passkeys={passkeys} />
      <SessionsCard sessions={sessions} />
      <ApiTokenCard />
    </div>
  );
}
