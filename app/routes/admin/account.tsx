import { data } from "react-router";
import { ApiTokenCard } from "~/components/account/api-token-card";
import { PasskeysCard } from "~/components/account/passkeys-card";
import { PasswordCard } from "~/components/account/password-card";
import { ProfileCard } from "~/components/account/profile-card";
import { SessionsCard } from "~/components/account/sessions-card";
import { TwoFactorCard } from "~/components/account/two-factor-card";
import { PageTitle } from "~/components/site/page-title";
import { servicesContext, viewerContext } from "~/context";
import { adminPageMeta } from "~/lib/meta";
import { loadAccountOverview, runAccountAction } from "../../../server/auth/account.ts";
import type { Route } from "./+types/account";

/**
 * The signed-in user's own account: name, password, sessions, two-factor, passkeys
 * and API tokens. Every form posts to this route's action (so all of it works without
 * JavaScript, except registering a passkey, which is WebAuthn by nature); the admin
 * layout's guard has already checked the session and role.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Account");

export async function loader({ context }: Route.LoaderArgs) {
  const { auth } = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  return loadAccountOverview(auth, viewer.user.id, viewer.session.id);
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  const { result, cookies } = await runAccountAction(services, viewer, request, await request.formData());
  const headers = new Headers();
  // Better Auth rotates the session when two-factor is turned on or off, or when other
  // sessions are revoked along with a password change: the browser needs the new cookie.
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  headers.set("Cache-Control", "private, no-store");
  return data(result, { status: result.ok ? 200 : 400, headers });
}

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const { user, twoFactor, sessions, passkeys } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div>
        <PageTitle>Account</PageTitle>
        <p className="mt-2 text-fg-muted">
          Signed in as <span className="font-medium text-fg">{user.email}</span>.
        </p>
      </div>
      <ProfileCard name={user.name} email={user.email} result={actionData} />
      <PasswordCard email={user.email} result={actionData} />
      <TwoFactorCard state={twoFactor} email={user.email} result={actionData} />
      <PasskeysCard passkeys={passkeys} result={actionData} />
      <SessionsCard sessions={sessions} result={actionData} />
      <ApiTokenCard result={actionData} />
    </div>
  );
}
