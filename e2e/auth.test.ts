import { sql } from "kysely";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SiteWithAccounts, signIn, startSiteWithAccounts, TEST_PASSWORD } from "../tests/helpers/accounts.ts";
import { type RunningServer, startServer } from "../tests/helpers/server.ts";
import { expectNoSideScroll } from "./helpers/admin-screens.ts";
import {
  closeBrowser,
  expectNoAxeViolations,
  launchBrowser,
  MOBILE_VIEWPORT,
  type TestPage,
  textOf,
  withPage,
} from "./helpers/browser.ts";
import { waitForHydration } from "./helpers/hydration.ts";

/**
 * Accounts and sessions in a real browser: sign-in and sign-out with their
 * toasts, the same message for a wrong email or password, the rate limit (429 with a
 * retry time), password reset and invitations end to end through the outbox, the
 * redirectTo rules, the owner-setup link, and the second step with a texted code
 * without JavaScript at 390 px. axe runs on every page visited.
 */

const OWNER = { email: "owner@example.com", name: "Olive Owner", password: "owner passphrase for tests" };
const RESET = { email: "reset@example.com", name: "Rita Reset", role: "editor" as const };
const TEXTER = { email: "texter@example.com", name: "Tess Texter", role: "editor" as const };
const NEW_PASSWORD = "brand new passphrase 2024";

let site: SiteWithAccounts;
let base: string;

beforeAll(async () => {
  [site] = await Promise.all([
    startSiteWithAccounts({
      dialect: "sqlite",
      // The owner comes from ADMIN_* at start-up (no admin exists before).
      accounts: [RESET, TEXTER],
      server: {
        env: {
          TRUST_PROXY: "true",
          ADMIN_EMAIL: OWNER.email,
          ADMIN_PASSWORD: OWNER.password,
          ADMIN_NAME: OWNER.name,
        },
      },
    }),
    launchBrowser(),
  ]);
  base = site.server.url;
});

afterAll(async () => {
  await closeBrowser();
  await site?.stop();
});

let lastIp = 0;

/** Sign-in is limited per client IP: each test browses from its own (the server trusts X-Forwarded-For). */
async function ownClientIp(testPage: TestPage): Promise<string> {
  lastIp += 1;
  const ip = `10.77.0.${lastIp}`;
  await testPage.context.setExtraHTTPHeaders({ "X-Forwarded-For": ip });
  // Toasts then appear at once, not fading in: axe measures contrast on what it sees.
  await testPage.page.emulateMedia({ reducedMotion: "reduce" });
  return ip;
}

async function fillSignIn(page: Page, email: string, password: string) {
  const form = page.getByTestId("sign-in-form");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
}

/** Submits the sign-in form of a page without JavaScript; the status of the page that comes back. */
async function signInWithoutJavaScript(page: Page, email: string, password: string): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation(), fillSignIn(page, email, password)]);
  return response?.status() ?? 0;
}

function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

/** The newest email of this kind to this address, from the outbox (no SMTP in tests). */
async function emailedLink(kind: string, to: string, path: string): Promise<string> {
  const database = await site.openDatabase();
  try {
    const row = await database.db
      .selectFrom("email_outbox")
      .select("text_body")
      .where("kind", "=", kind)
      .where("to_address", "=", to)
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    const link = row.text_body.match(new RegExp(`${base}${path.replace("?", "\\?")}\\?token=[\\w-]+`))?.[0];
    expect(link, row.text_body).toBeTruthy();
    return link as string;
  } finally {
    await database.close();
  }
}

async function sessionEmail(cookie: string): Promise<string | null> {
  const response = await fetch(`${base}/api/auth/get-session`, { headers: { Cookie: cookie } });
  const body = (await response.json()) as { user?: { email: string } } | null;
  return body?.user?.email ?? null;
}

describe.each([
  { javaScript: "on", javaScriptEnabled: true },
  { javaScript: "off", javaScriptEnabled: false },
])("sign-in and sign-out with JavaScript $javaScript", ({ javaScriptEnabled }) => {
  it("signs in from the guard's redirect, then signs out with 'Signed out'", async () => {
    await withPage({ javaScriptEnabled }, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/admin`);
      await page.waitForURL(`${base}/auth?redirectTo=%2Fadmin`);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Sign in");
      expect(await page.getByRole("link", { name: "Forgot password?" }).getAttribute("href")).toBe(
        "/auth/forgot-password",
      );
      // The passkey button needs JavaScript: it appears once the page is hydrated (at once
      // on a quiet machine, not on a busy one); without JavaScript it is not offered.
      if (javaScriptEnabled) await page.getByTestId("passkey-sign-in").waitFor();
      else expect(await page.getByTestId("passkey-sign-in").count()).toBe(0);
      await expectNoAxeViolations(page);

      await fillSignIn(page, OWNER.email, OWNER.password);
      await page.waitForURL(`${base}/admin`);
      await page.getByRole("heading", { level: 1, name: `Welcome back, ${OWNER.name}` }).waitFor();

      // Signed in already: /auth goes straight on.
      await page.goto(`${base}/auth`);
      await page.waitForURL(`${base}/admin`);
      await page.getByRole("heading", { level: 1, name: `Welcome back, ${OWNER.name}` }).waitFor();

      if (javaScriptEnabled) {
        await page.getByTestId("account-menu-toggle").click();
        await page.getByTestId("sign-out").click();
      } else {
        // The admin's account menu needs JavaScript; the sign-out page offers the same button without it.
        await page.goto(`${base}/auth/sign-out`);
        await page.getByRole("button", { name: "Sign out" }).click();
      }
      await page.waitForURL(`${base}/auth?notice=signed-out`);
      if (javaScriptEnabled) {
        const shown = toast(page, "Signed out");
        await shown.waitFor();
        expect(await textOf(shown)).toContain("You have been signed out successfully.");
      }
      const notice = page.getByTestId("form-notice");
      expect(await notice.getAttribute("role")).toBe("status");
      expect(await textOf(notice)).toBe("Signed out You have been signed out successfully.");
      await expectNoAxeViolations(page);

      const cookies = await testPage.context.cookies();
      expect(cookies.filter((cookie) => cookie.name.includes("session_token"))).toEqual([]);
      await page.goto(`${base}/admin`);
      await page.waitForURL(`${base}/auth?redirectTo=%2Fadmin`);
    });
  });

  it("answers a wrong password and an unknown email with the same message", async () => {
    await withPage({ javaScriptEnabled }, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/auth`);
      const texts: string[] = [];
      for (const [email, password] of [
        [OWNER.email, "not the right password"],
        ["nobody@example.com", OWNER.password],
      ] as const) {
        if (javaScriptEnabled) await fillSignIn(page, email, password);
        else expect(await signInWithoutJavaScript(page, email, password)).toBe(401);
        const error = page.getByTestId("form-error");
        await error.getByText("Invalid email or password.").waitFor();
        expect(await error.getAttribute("role")).toBe("alert");
        texts.push(await textOf(error));
        if (javaScriptEnabled) {
          const shown = toast(page, "Error signing in");
          await shown.waitFor();
          expect(await textOf(shown)).toContain("Invalid email or password.");
          // Closed, so that the next attempt must show a toast of its own (and the two are
          // not on screen together).
          await shown.getByRole("button", { name: "Close toast" }).click();
          await shown.waitFor({ state: "hidden" });
        }
        await expectNoAxeViolations(page);
      }
      expect(texts).toEqual([
        "Error signing in Invalid email or password.",
        "Error signing in Invalid email or password.",
      ]);
      // The email typed is kept; the password is not.
      expect(await page.getByLabel("Email", { exact: true }).inputValue()).toBe("nobody@example.com");
    });
  });
});

describe("rate limit", () => {
  it("answers the sixth sign-in attempt within a minute with 429 and the time to wait", async () => {
    await withPage({ javaScriptEnabled: false }, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/auth`);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        statuses.push(await signInWithoutJavaScript(page, "limited@example.com", `wrong password ${attempt}`));
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const message = await textOf(page.getByTestId("form-error"));
      expect(message).toMatch(/^Error signing in Too many attempts\. Please try again in (\d+ seconds|1 minute)\.$/);
      await expectNoAxeViolations(page);

      // Even the right password waits: the limit counts attempts, not failures.
      expect(await signInWithoutJavaScript(page, OWNER.email, OWNER.password)).toBe(429);
    });
  });
});

describe("password reset", () => {
  it("emails a link that sets a new password once, signing out other sessions", async () => {
    const ip = "10.78.0.1";
    const otherSession = await signIn(base, RESET.email, { clientIp: ip });
    expect(await sessionEmail(otherSession)).toBe(RESET.email);

    await withPage({}, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/auth`);
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await page.waitForURL(`${base}/auth/forgot-password`);
      await page.getByRole("heading", { level: 1, name: "Forgot password" }).waitFor();
      await expectNoAxeViolations(page);

      // Unknown address: the very same answer.
      for (const email of ["unknown@example.com", RESET.email]) {
        await page.goto(`${base}/auth/forgot-password`);
        await page.getByLabel("Email", { exact: true }).fill(email);
        await page.getByRole("button", { name: "Send reset link" }).click();
        // No SMTP in these tests: the link is kept in the outbox, and the page says so.
        const kept =
          "No SMTP is configured, so no email was sent: for an address with an account, the reset link is in the server's log.";
        const shown = toast(page, "Reset link kept in the outbox");
        await shown.waitFor();
        expect(await textOf(shown)).toContain(kept);
        expect(await textOf(page.getByTestId("form-notice"))).toBe(`Reset link kept in the outbox ${kept}`);
        await expectNoAxeViolations(page);
      }

      const link = await emailedLink("password-reset", RESET.email, "/auth/reset-password");
      await page.goto(link);
      await page.getByRole("heading", { level: 1, name: "Reset password" }).waitFor();
      await expectNoAxeViolations(page);

      const form = page.getByTestId("reset-password-form");
      await form.getByLabel("New password").fill(NEW_PASSWORD);
      await form.getByLabel("Confirm password").fill("something else entirely");
      await form.getByRole("button", { name: "Set new password" }).click();
      await page.getByTestId("form-error").getByText("The passwords do not match.").waitFor();
      await form.getByLabel("New password").fill("password1234");
      await form.getByLabel("Confirm password").fill("password1234");
      await form.getByRole("button", { name: "Set new password" }).click();
      await page.getByTestId("form-error").getByText("This password is too common").waitFor();
      await expectNoAxeViolations(page);

      await form.getByLabel("New password").fill(NEW_PASSWORD);
      await form.getByLabel("Confirm password").fill(NEW_PASSWORD);
      await form.getByRole("button", { name: "Set new password" }).click();
      await page.waitForURL(`${base}/auth?notice=password-reset`);
      await toast(page, "Password updated").waitFor();
      await expectNoAxeViolations(page);
      expect(await sessionEmail(otherSession)).toBeNull();

      await fillSignIn(page, RESET.email, NEW_PASSWORD);
      await page.waitForURL(`${base}/admin`);

      // The link worked once.
      await page.goto(link);
      await page.getByText("This password reset link is invalid or has expired.").first().waitFor();
      expect(await page.getByTestId("reset-password-form").count()).toBe(0);
      await expectNoAxeViolations(page);
    });
  });
});

describe("invitations", () => {
  it("an admin invites by email; the link creates the account once; the admin manages it", async () => {
    const invitee = { email: "ivy@example.com", name: "Ivy Invitee", password: "ivy's own passphrase" };
    await withPage({}, async (adminPage) => {
      const { page } = adminPage;
      await ownClientIp(adminPage);
      await page.goto(`${base}/auth?redirectTo=%2Fadmin%2Fusers`);
      await fillSignIn(page, OWNER.email, OWNER.password);
      await page.waitForURL(`${base}/admin/users`);
      await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();
      await waitForHydration(page);
      expect(await page.getByText("No pending invitations.").count()).toBe(1);
      await expectNoAxeViolations(page);

      const inviteForm = page.getByTestId("invite-form");
      await inviteForm.getByLabel("Email").fill(invitee.email);
      expect(await textOf(inviteForm.getByRole("combobox", { name: "Role" }))).toBe("Editor");
      await inviteForm.getByRole("button", { name: "Send invitation" }).click();
      await toast(page, "Invitation kept in the outbox").waitFor();
      await page.getByTestId("invitations-table").getByText(invitee.email).waitFor();
      await expectNoAxeViolations(page);

      const link = await emailedLink("invitation", invitee.email, "/auth/invite");
      expect(await textOf(page.getByTestId("invitation-link"))).toContain(link);

      await withPage({}, async (inviteePage) => {
        const { page: guest } = inviteePage;
        await ownClientIp(inviteePage);
        await guest.goto(link);
        await guest.getByRole("heading", { level: 1, name: "Create your account" }).waitFor();
        const form = guest.getByTestId("invite-form");
        expect(await form.getByLabel("Email").inputValue()).toBe(invitee.email);
        expect(await form.getByLabel("Email").getAttribute("readonly")).not.toBeNull();
        await expectNoAxeViolations(guest);

        await form.getByLabel("Full name").fill(invitee.name);
        await form.getByLabel("Password", { exact: true }).fill(invitee.password);
        await form.getByLabel("Confirm password").fill(invitee.password);
        await form.getByRole("button", { name: "Create account" }).click();
        await guest.waitForURL(`${base}/auth?notice=account-created`);
        const shown = toast(guest, "Success!");
        await shown.waitFor();
        expect(await textOf(shown)).toContain("Account created successfully. You can now sign in.");
        await expectNoAxeViolations(guest);

        await fillSignIn(guest, invitee.email, invitee.password);
        await guest.waitForURL(`${base}/admin`);
        expect(await textOf(guest.getByTestId("role-label"))).toBe("Editor");

        await guest.goto(link);
        await guest.getByText("This link is invalid, has expired or has already been used.").first().waitFor();
        expect(await guest.getByTestId("invite-form").count()).toBe(0);
      });

      await page.reload();
      await waitForHydration(page);
      const row = page.getByTestId(`user-${invitee.email}`);
      await row.waitFor();
      expect(await textOf(row)).toContain(invitee.name);
      expect(await page.getByText("No pending invitations.").count()).toBe(1);

      await row.getByRole("button", { name: `Change the role of ${invitee.name}` }).click();
      const roleDialog = page.getByRole("dialog", { name: `Change the role of ${invitee.name}` });
      await roleDialog.getByRole("combobox", { name: "Role" }).click();
      await page.getByRole("option", { name: "Administrator" }).click();
      await roleDialog.getByRole("button", { name: "Save role" }).click();
      await toast(page, "Role updated").waitFor();
      await expect.poll(() => textOf(row)).toContain("Administrator");

      await row.getByRole("button", { name: `Delete ${invitee.name}` }).click();
      const confirm = page.getByRole("alertdialog", { name: `Delete ${invitee.name}?` });
      await confirm.getByText("This action cannot be undone.").waitFor();
      await expectNoAxeViolations(page);
      await confirm.getByRole("button", { name: "Delete permanently" }).click();
      await toast(page, "User deleted").waitFor();
      await expect.poll(() => page.getByTestId(`user-${invitee.email}`).count()).toBe(0);
    });
  });
});

describe("sign-in with a texted code", () => {
  const PHONE = "+447700900456";

  it("works without JavaScript at 390 px: the code is sent on request, a wrong one refused, the right one signs in", async () => {
    const userId = site.users.get(TEXTER.email)?.id as string;
    const database = await site.openDatabase();
    try {
      // A confirmed phone number, as the account page leaves it (enrolment is tested in account.test.ts).
      await database.db
        .insertInto("phone_factors")
        .values({ user_id: userId, phone_number: PHONE, verified_at: new Date().toISOString() })
        .execute();
      await sql`update ${sql.table("user")} set ${sql.ref("twoFactorEnabled")} = 1 where id = ${userId}`.execute(
        database.db,
      );
    } finally {
      await database.close();
    }

    await withPage({ javaScriptEnabled: false, viewport: MOBILE_VIEWPORT }, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/auth`);
      await fillSignIn(page, TEXTER.email, TEST_PASSWORD);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      expect(await textOf(page.getByRole("main"))).toContain(
        "We text a 6-digit code to your phone number ending in 0456.",
      );
      // An account without an authenticator app is offered neither its codes nor backup codes.
      expect(await page.getByRole("link", { name: /authenticator app|backup code/ }).count()).toBe(0);
      await expectNoSideScroll(page, "the second step before a code is sent");
      await expectNoAxeViolations(page);

      await page.getByRole("button", { name: "Text me a code" }).click();
      await page.waitForURL((url) => url.searchParams.get("sent") === "1");
      expect(await textOf(page.getByTestId("form-notice"))).toContain(
        "A code was sent to your phone number ending in 0456. It works for 5 minutes.",
      );
      await expectNoSideScroll(page, "the second step with the code field");
      await expectNoAxeViolations(page);

      const database = await site.openDatabase();
      const texted = await database.db
        .selectFrom("sms_outbox")
        .select(["body", "status", "last_error"])
        .where("to_number", "=", PHONE)
        .executeTakeFirstOrThrow()
        .finally(() => database.close());
      expect(texted.body).toMatch(/^\d{6} is your Bastion sign-in code\./);
      const code = texted.body?.slice(0, 6) as string;

      await page.getByLabel("Code from the text message").fill(code === "000000" ? "111111" : "000000");
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByTestId("form-error").getByText("The code is not valid. Please try again.").waitFor();
      expect(await page.getByLabel("Code from the text message").getAttribute("aria-invalid")).toBe("true");
      await expectNoSideScroll(page, "the second step with a wrong code");
      await expectNoAxeViolations(page);

      await page.getByLabel("Code from the text message").fill(code);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL(`${base}/admin`);
    });
  });

  it("sends a second step that waited too long back to the first, saying why, without JavaScript", async () => {
    const userId = site.users.get(TEXTER.email)?.id as string;
    await withPage({ javaScriptEnabled: false }, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/auth?redirectTo=%2Fadmin%2Ftips`);
      await fillSignIn(page, TEXTER.email, TEST_PASSWORD);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");

      // The server forgets the waiting sign-in, as it does once its ten minutes are up.
      const database = await site.openDatabase();
      try {
        await sql`delete from ${sql.table("verification")} where ${sql.ref("value")} = ${userId}`.execute(database.db);
      } finally {
        await database.close();
      }
      await page.getByRole("button", { name: /Text me a code|Send a new code/ }).click();
      await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("notice") === "sign-in-expired");
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/admin/tips");
      expect(await textOf(page.getByRole("main"))).toContain(
        "This sign-in attempt has expired or was tried too many times. Please sign in again.",
      );
      await expectNoAxeViolations(page);
    });
  });
});

describe("redirectTo", () => {
  it("is honoured for a same-site path and ignored for //evil.example", async () => {
    await withPage({}, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/auth?redirectTo=%2F%2Fevil.example`);
      await fillSignIn(page, RESET.email, NEW_PASSWORD);
      await page.waitForURL(`${base}/admin`);

      // Signed in: /auth forwards at once, by the same rules.
      await page.goto(`${base}/auth?redirectTo=%2Fadmin%2Fresources`);
      await page.waitForURL(`${base}/admin/resources`);
      await page.goto(`${base}/auth?redirectTo=https%3A%2F%2Fevil.example%2F`);
      await page.waitForURL(`${base}/admin`);
    });
    await withPage({ javaScriptEnabled: false }, async (testPage) => {
      const { page } = testPage;
      await ownClientIp(testPage);
      await page.goto(`${base}/auth?redirectTo=%2Fadmin%2Fprojects`);
      await fillSignIn(page, RESET.email, NEW_PASSWORD);
      await page.waitForURL(`${base}/admin/projects`);
    });
  });
});

describe("owner setup", () => {
  let fresh: RunningServer;

  beforeAll(async () => {
    fresh = await startServer({});
  });
  afterAll(async () => {
    await fresh?.stop();
  });

  it("a server without any admin logs a one-time link that creates the owner account", async () => {
    const line = await fresh.waitForLog((entry) => typeof entry.setupUrl === "string");
    const link = line.setupUrl as string;
    expect(link).toMatch(new RegExp(`^${fresh.url}/auth/setup\\?token=[\\w-]{43}$`));

    await withPage({}, async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.goto(link);
      await page.getByRole("heading", { level: 1, name: "Set up the owner account" }).waitFor();
      await expectNoAxeViolations(page);
      const form = page.getByTestId("setup-form");
      await form.getByLabel("Full name").fill("Sam Setup");
      await form.getByLabel("Email").fill("sam@example.com");
      await form.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
      await form.getByLabel("Confirm password").fill(TEST_PASSWORD);
      await form.getByRole("button", { name: "Create owner account" }).click();
      await page.waitForURL(`${fresh.url}/auth?notice=account-created`);
      await toast(page, "Success!").waitFor();

      await fillSignIn(page, "sam@example.com", TEST_PASSWORD);
      await page.waitForURL(`${fresh.url}/admin`);
      expect(await textOf(page.getByTestId("role-label"))).toBe("Administrator");

      await page.goto(link);
      await page.getByText("This link is invalid, has expired or has already been used.").first().waitFor();
      expect(await page.getByTestId("setup-form").count()).toBe(0);
      await expectNoAxeViolations(page);
    });
  });
});
