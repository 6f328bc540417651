import { passkeyClient } from "@better-auth/passkey/client";
import { twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

/**
 * Better Auth's browser client, for what needs JavaScript by nature: passkeys
 * (WebAuthn) and keeping the session fresh while the page is visible. Forms
 * (sign-in, reset, two-factor codes) post to route actions and work without it.
 */
export const authClient = createAuthClient({
  basePath: "/api/auth",
  plugins: [passkeyClient(), twoFactorClient()],
});
