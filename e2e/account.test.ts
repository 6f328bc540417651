import { createHmac } from "node:crypto";
import { sql } from "kysely";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  browserCookies,
  type SiteWithAccounts,
  signIn,
  startSiteWithAccounts,
  TEST_PASSWORD,
} from "../tests/helpers/accounts.ts";
import { freePort } from "../tests/helpers/server.ts";
import { closeBrowser, expectNoAxeViolations, launchBrowser, textOf, withPage } from "./helpers/browser.ts";

/**
 * The account page (/admin/account) in a real browser: TOTP two-factor enrolment and
 * sign-in with a code and with a one-time backup code, passkeys with Chromium's virtual
 * authenticator, sessions, name and password, API tokens, accessibility and the page
 * without JavaScript. Codes are computed here from the enrolment's secret (RFC 6238).
 *
 * The server's public URL is http://localhost:PORT, not 127.0.0.1: WebAuthn refuses IP
 * addresses as relying-party ids.
 */

// ---------------------------------------------------------------------------------
// TOTP (RFC 6238 over RFC 4226), independent of Better Auth's implementation
// ---------------------------------------------------------------------------------

function base32Decode(input: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of input.replace(/=+$/, "").replace(/\s+/g, "").toUpperCase()) {
    const index = alphabet.indexOf(character);
    if (index < 0) throw new Error(`Not base32: ${character}`);
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

function totp(secret: string, at = Date.now(), stepSeconds = 30, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / stepSeconds)));
  const hmac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = (hmac[hmac.length - 1] as number) & 0x0f;
  const code = (hmac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, "0");
}

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

interface LocalSite {
  site: SiteWithAccounts;
  baseUrl: string;
}

async function startLocalhostSite(accounts: Parameters<typeof startSiteWithAccounts>[0]["accounts"]) {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const site = await startSiteWithAccounts({
    dialect: "sqlite",
    accounts,
    server: { env: { PORT: String(port), PUBLIC_URL: baseUrl } },
  });
  return { site, baseUrl } satisfies LocalSite;
}

async function signInWithForm(page: Page, baseUrl: string, email: string, password = TEST_PASSWORD) {
  await page.goto(`${baseUrl}/auth?${new URLSearchParams({ redirectTo: "/admin/account" })}`);
  const form = page.getByTestId("sign-in-form");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
}

/** On the account page, rendered (a client-side navigation changes the URL before it renders). */
async function atAccountPage(page: Page, baseUrl: string) {
  await page.waitForURL(`${baseUrl}/admin/account`);
  await page.getByRole("heading", { level: 1, name: "Account" }).waitFor();
}

async function signOutWithMenu(page: Page) {
  await page.getByTestId("account-menu-toggle").click();
  await page.getByTestId("sign-out").click();
  await page.waitForURL((url) => url.pathname === "/auth");
}

async function auditActions(site: SiteWithAccounts, userId: string): Promise<string[]> {
  const database = await site.openDatabase();
  try {
    const rows = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("user_id", "=", userId)
      .orderBy("at")
      .execute();
    return rows.map((row) => row.action);
  } finally {
    await database.close();
  }
}

/** Sign-in is rate limited per client IP (5 a minute); every test here comes from 127.0.0.1. */
async function clearRateLimits(site: SiteWithAccounts) {
  const database = await site.openDatabase();
  try {
    await sql`delete from ${sql.table("rateLimit")}`.execute(database.db);
  } finally {
    await database.close();
  }
}

async function sessionOf(baseUrl: string, cookie: string) {
  const response = await fetch(`${baseUrl}/api/auth/get-session`, { headers: { Cookie: cookie } });
  return (await response.json()) as { session?: { id: string } } | null;
}

beforeAll(async () => {
  await launchBrowser();
});

afterAll(async () => {
  await closeBrowser();
});

// ---------------------------------------------------------------------------------
// Two-factor
// ---------------------------------------------------------------------------------

describe("two-factor authentication (TOTP)", () => {
  const OWNER = { email: "olivia.owner@example.com", name: "Olivia Owner", role: "admin" as const };
  let local: LocalSite;
  /** From the enrolment test, for the tests after it. */
  let secret = "";
  let backupCodes: string[] = [];

  beforeAll(async () => {
    local = await startLocalhostSite([OWNER]);
  });

  afterAll(async () => {
    await local?.site.stop();
  });

  it("enrols with a QR code and a confirming code, then sign-in asks for a code; a backup code works once", async () => {
    const { site, baseUrl } = local;
    const userId = site.users.get(OWNER.email)?.id as string;

    await withPage({}, async ({ page }) => {
      await signInWithForm(page, baseUrl, OWNER.email);
      await atAccountPage(page, baseUrl);
      const card = page.getByTestId("two-factor");
      expect(await textOf(card.getByTestId("two-factor-status"))).toBe("Off");

      // 1. Password confirmation → QR code (server-rendered SVG) and the manual key.
      const enable = page.getByTestId("totp-enable-form");
      await enable.getByLabel("Confirm your password").fill(TEST_PASSWORD);
      await enable.getByRole("button", { name: "Set up two-factor authentication" }).click();
      const qr = page.getByTestId("totp-qr");
      await qr.waitFor();
      const src = (await qr.getAttribute("src")) ?? "";
      expect(src).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(src.split(",")[1] as string, "base64").toString("utf8")).toContain("<svg");
      secret = (await page.getByTestId("totp-secret").getAttribute("data-secret")) ?? "";
      expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
      expect((await textOf(page.getByTestId("totp-secret"))).replace(/\s/g, "")).toBe(secret);

      // 2. Not confirmed yet: the factor does not count, sign-in asks for no code.
      const unconfirmed = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: baseUrl },
        body: JSON.stringify({ email: OWNER.email, password: TEST_PASSWORD }),
      });
      expect(unconfirmed.status).toBe(200);
      const unconfirmedBody = (await unconfirmed.json()) as { twoFactorRedirect?: boolean; token?: string };
      expect(unconfirmedBody.twoFactorRedirect).toBeUndefined();
      expect(unconfirmedBody.token).toBeTruthy();

      // 3. A wrong code is refused and the QR code stays.
      const verify = page.getByTestId("totp-verify-form");
      await verify.getByLabel("6-digit code").fill(totp(secret, Date.now() + 10 * 60_000));
      await verify.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByTestId("two-factor-result").getByText("That code is not correct").waitFor();
      expect(await qr.isVisible()).toBe(true);
      expect(await textOf(card.getByTestId("two-factor-status"))).toBe("Off");

      // 4. The right code turns it on, and the backup codes are shown once.
      await verify.getByLabel("6-digit code").fill(totp(secret));
      await verify.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByTestId("backup-codes").waitFor();
      backupCodes = await page.getByTestId("backup-code").allTextContents();
      expect(backupCodes.length).toBeGreaterThanOrEqual(8);
      // The action's answer can show before the page's data is reloaded.
      await expect.poll(() => textOf(card.getByTestId("two-factor-status"))).toBe("On");
      expect(await auditActions(site, userId)).toContain("account.two-factor-enabled");

      // Still signed in on the rotated session; the codes are not shown again.
      await page.reload();
      await card.getByTestId("two-factor-status").waitFor();
      expect(await textOf(card.getByTestId("two-factor-status"))).toBe("On");
      expect(await page.getByTestId("backup-codes").count()).toBe(0);

      // 5. Sign-in now asks for the code.
      await signOutWithMenu(page);
      await signInWithForm(page, baseUrl, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      const twoFactorForm = page.getByTestId("two-factor-form");
      await twoFactorForm.getByLabel("Authentication code").fill(totp(secret));
      await twoFactorForm.getByRole("button", { name: "Verify" }).click();
      await atAccountPage(page, baseUrl);

      // 6. A backup code works once.
      const [backupCode] = backupCodes as [string];
      await signOutWithMenu(page);
      await signInWithForm(page, baseUrl, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      await page.getByRole("link", { name: "Use a backup code instead" }).click();
      await page.getByLabel("Backup code").fill(backupCode);
      await page.getByRole("button", { name: "Verify" }).click();
      await atAccountPage(page, baseUrl);

      await signOutWithMenu(page);
      await signInWithForm(page, baseUrl, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      await page.getByRole("link", { name: "Use a backup code instead" }).click();
      await page.getByLabel("Backup code").fill(backupCode);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("The backup code is not valid.").first().waitFor();
      expect(new URL(page.url()).pathname).toBe("/auth/two-factor");
    });
  });

  it("creates new backup codes (the old ones stop working) and turns two-factor off with the password", async () => {
    const { site, baseUrl } = local;
    const userId = site.users.get(OWNER.email)?.id as string;
    expect(secret, "the enrolment test ran first").not.toBe("");
    await clearRateLimits(site);

    await withPage({}, async ({ page }) => {
      await signInWithForm(page, baseUrl, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      await page.getByTestId("two-factor-form").getByLabel("Authentication code").fill(totp(secret));
      await page.getByRole("button", { name: "Verify" }).click();
      await atAccountPage(page, baseUrl);

      // New backup codes: a wrong password is refused, the right one shows new codes once.
      await page.getByText("Create new backup codes", { exact: true }).first().click();
      const regenerate = page.getByTestId("backup-codes-form");
      await regenerate.getByLabel("Confirm your password").fill("not the password at all");
      await regenerate.getByRole("button", { name: "Create new backup codes" }).click();
      await page.getByTestId("two-factor-result").getByText("The password is not correct.").waitFor();
      await regenerate.getByLabel("Confirm your password").fill(TEST_PASSWORD);
      await regenerate.getByRole("button", { name: "Create new backup codes" }).click();
      await page.getByTestId("backup-codes").waitFor();
      const fresh = await page.getByTestId("backup-code").allTextContents();
      expect(fresh.length).toBeGreaterThanOrEqual(8);
      expect(fresh).not.toContain(backupCodes[1]);

      // An old, unused code no longer works.
      const signedIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: baseUrl },
        body: JSON.stringify({ email: OWNER.email, password: TEST_PASSWORD }),
      });
      expect(((await signedIn.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
      const challenge = signedIn.headers
        .getSetCookie()
        .map((cookie) => cookie.split(";")[0])
        .join("; ");
      const old = await fetch(`${baseUrl}/api/auth/two-factor/verify-backup-code`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: baseUrl, Cookie: challenge },
        body: JSON.stringify({ code: backupCodes[1] }),
      });
      expect(old.status).toBe(401);

      // Turn off: password required.
      await page.getByText("Turn off two-factor authentication", { exact: true }).first().click();
      const disable = page.getByTestId("totp-disable-form");
      await disable.getByLabel("Confirm your password").fill(TEST_PASSWORD);
      await disable.getByRole("button", { name: "Turn off two-factor authentication" }).click();
      await page.getByTestId("two-factor-result").getByText("Two-factor authentication is off.").waitFor();
      await expect.poll(() => textOf(page.getByTestId("two-factor-status"))).toBe("Off");
      const actions = await auditActions(site, userId);
      // Turned on once: a code checked at sign-in is not an account change.
      expect(actions.filter((action) => action === "account.two-factor-enabled")).toHaveLength(1);
      expect(actions).toContain("account.backup-codes-regenerated");
      expect(actions).toContain("account.two-factor-disabled");

      // Sign-in asks for the password only again.
      await signOutWithMenu(page);
      await signInWithForm(page, baseUrl, OWNER.email);
      await atAccountPage(page, baseUrl);
    });
  });
});

// ---------------------------------------------------------------------------------
// Passkeys, sessions, profile, password, API tokens, accessibility
// ---------------------------------------------------------------------------------

describe("the account page", () => {
  const EDITOR = { email: "eve.editor@example.com", name: "Eve Editor", role: "editor" as const };
  const NEW_PASSWORD = "a brand new passphrase for eve";
  let local: LocalSite;

  beforeAll(async () => {
    local = await startLocalhostSite([EDITOR]);
  });

  afterAll(async () => {
    await local?.site.stop();
  });

  beforeEach(async () => {
    await clearRateLimits(local.site);
  });

  it("has no accessibility violations and is keyboard-operable", async () => {
    const { baseUrl } = local;
    await withPage({}, async ({ page }) => {
      await signInWithForm(page, baseUrl, EDITOR.email);
      await atAccountPage(page, baseUrl);
      await page.getByTestId("add-passkey").waitFor();
      expect(await textOf(page.locator("h1"))).toBe("Account");
      await expectNoAxeViolations(page);

      // Forms submit with Enter; buttons press with Enter.
      await page.getByTestId("totp-enable-form").getByLabel("Confirm your password").focus();
      await page.keyboard.type(TEST_PASSWORD);
      await page.keyboard.press("Enter");
      await page.getByTestId("totp-qr").waitFor();
      await expectNoAxeViolations(page);

      // An API token, shown once with its expiry.
      await page.getByTestId("create-api-token").focus();
      await page.keyboard.press("Enter");
      await page.getByTestId("api-token").waitFor();
      await expectNoAxeViolations(page);
    });
  });

  it("registers a passkey with a virtual authenticator, renames it, signs in with it and removes it", async () => {
    const { site, baseUrl } = local;
    const userId = site.users.get(EDITOR.email)?.id as string;
    await withPage({}, async ({ page, context }) => {
      const cdp = await context.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      await signInWithForm(page, baseUrl, EDITOR.email);
      await atAccountPage(page, baseUrl);
      const passkeys = page.getByTestId("passkeys");
      await passkeys.getByTestId("no-passkeys").waitFor();

      await passkeys.getByLabel("Name (optional)").fill("Virtual key");
      await passkeys.getByTestId("add-passkey").click();
      await passkeys.getByTestId("add-passkey-result").getByText("Passkey added").waitFor();
      await passkeys.getByTestId("passkey-label").getByText("Virtual key").waitFor();
      expect(await passkeys.getByTestId("passkey-row").count()).toBe(1);
      await expectNoAxeViolations(page);
      expect(await auditActions(site, userId)).toContain("account.passkey-added");

      // Rename.
      await passkeys.locator("summary", { hasText: "Rename" }).click();
      const rename = passkeys.getByRole("form", { name: "Rename Virtual key" });
      await rename.getByLabel("Name").fill("Laptop key");
      await rename.getByRole("button", { name: "Save name" }).click();
      await passkeys.getByTestId("passkey-label").getByText("Laptop key").waitFor();

      // Sign out, then sign in with the passkey alone.
      await signOutWithMenu(page);
      await page.getByTestId("passkey-sign-in").click();
      await page.waitForURL(`${baseUrl}/admin`);
      await page.goto(`${baseUrl}/admin/account`);
      await page.getByTestId("this-device").waitFor();

      // Remove (a disclosure says it cannot be undone).
      await passkeys.locator("summary", { hasText: "Remove" }).click();
      await passkeys.getByText("This cannot be undone").waitFor();
      await passkeys.getByTestId("passkey-remove").click();
      await passkeys.getByTestId("no-passkeys").waitFor();
      const actions = await auditActions(site, userId);
      expect(actions).toContain("account.passkey-renamed");
      expect(actions).toContain("account.passkey-removed");
    });
  });

  it("lists the sessions with this device marked, and signs out another one or all others", async () => {
    const { site, baseUrl } = local;
    const userId = site.users.get(EDITOR.email)?.id as string;
    const elsewhere = await signIn(baseUrl, EDITOR.email);
    const elsewhereId = (await sessionOf(baseUrl, elsewhere))?.session?.id as string;
    expect(elsewhereId).toBeTruthy();

    await withPage({}, async ({ page }) => {
      await signInWithForm(page, baseUrl, EDITOR.email);
      await atAccountPage(page, baseUrl);
      const sessions = page.getByTestId("sessions");
      const current = sessions.locator('[data-testid="session-row"][data-current="true"]');
      await current.waitFor();
      expect(await current.count()).toBe(1);
      expect(await textOf(current)).toContain("This device");
      expect(await textOf(current)).toContain("127.0.0.1");
      expect(await current.getByTestId("revoke-session").count()).toBe(0);
      const before = await sessions.getByTestId("session-row").count();
      expect(before).toBeGreaterThanOrEqual(2);
      await expectNoAxeViolations(page);

      // Sign out one other session (the HTTP client's; its user agent is not a browser's).
      const other = sessions
        .getByTestId("session-row")
        .filter({ hasNot: page.getByTestId("this-device") })
        .first();
      await other.getByTestId("revoke-session").click();
      await sessions.getByTestId("session-result").getByText("The session has been signed out.").waitFor();
      await expect.poll(() => sessions.getByTestId("session-row").count()).toBe(before - 1);
      expect(await auditActions(site, userId)).toContain("account.session-revoked");

      // Then all the others at once.
      const another = await signIn(baseUrl, EDITOR.email);
      await page.reload();
      await sessions.getByTestId("revoke-other-sessions").click();
      await sessions.getByTestId("session-result").getByText("All your other sessions have been signed out.").waitFor();
      await expect.poll(() => sessions.getByTestId("session-row").count()).toBe(1);
      expect(await sessionOf(baseUrl, another)).toBeNull();
      expect(await sessionOf(baseUrl, elsewhere)).toBeNull();

      // This one still works.
      await page.reload();
      await page.getByTestId("this-device").waitFor();
    });
  });

  it("changes the name and the password (with the password rules), signing out other sessions", async () => {
    const { site, baseUrl } = local;
    const userId = site.users.get(EDITOR.email)?.id as string;
    const elsewhere = await signIn(baseUrl, EDITOR.email);

    await withPage({}, async ({ page }) => {
      await signInWithForm(page, baseUrl, EDITOR.email);
      await atAccountPage(page, baseUrl);

      const nameForm = page.getByTestId("name-form");
      await nameForm.getByLabel("Full name").fill("  Eve   Renamed ");
      await nameForm.getByRole("button", { name: "Save name" }).click();
      await page.getByTestId("name-result").getByText("Your name has been updated.").waitFor();
      await page.getByTestId("account-menu-name").getByText("Eve Renamed").waitFor();

      const passwordForm = page.getByTestId("password-form");
      const fill = async (current: string, next: string, confirm: string) => {
        await passwordForm.getByLabel("Current password").fill(current);
        await passwordForm.getByLabel("New password", { exact: true }).fill(next);
        await passwordForm.getByLabel("Confirm new password").fill(confirm);
        await passwordForm.getByRole("button", { name: "Change password" }).click();
      };
      await fill(TEST_PASSWORD, "password1234", "password1234");
      await passwordForm.getByText("This password is too common").first().waitFor();
      await fill(TEST_PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}!`);
      await passwordForm.getByText("The two new passwords do not match.").waitFor();
      await fill("not my password at all", NEW_PASSWORD, NEW_PASSWORD);
      await passwordForm.getByText("The password is not correct.").first().waitFor();
      await fill(TEST_PASSWORD, NEW_PASSWORD, NEW_PASSWORD);
      await page
        .getByTestId("password-result")
        .getByText("Your password has been changed and your other sessions signed out.")
        .waitFor();
      expect(await sessionOf(baseUrl, elsewhere)).toBeNull();
      const actions = await auditActions(site, userId);
      expect(actions).toContain("account.name-changed");
      expect(actions).toContain("account.password-changed");

      // Still signed in here; the new password signs in.
      await page.reload();
      await page.getByTestId("this-device").waitFor();
      await signOutWithMenu(page);
      await signInWithForm(page, baseUrl, EDITOR.email, NEW_PASSWORD);
      await atAccountPage(page, baseUrl);
    });
  });

  it("creates an API token shown once with its expiry, which /api/me accepts", async () => {
    const { baseUrl } = local;
    const cookie = await signIn(baseUrl, EDITOR.email, NEW_PASSWORD);
    await withPage({}, async ({ page, context }) => {
      await context.addCookies(browserCookies(cookie, baseUrl));
      await page.goto(`${baseUrl}/admin/account`);
      await page.getByTestId("create-api-token").click();
      const shown = page.getByTestId("api-token");
      await shown.waitFor();
      const token = await shown.getByTestId("api-token-value").inputValue();
      expect(token.split(".")).toHaveLength(3);
      expect(await textOf(shown)).toMatch(/Expires \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);

      const me = await fetch(`${baseUrl}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ email: EDITOR.email, roles: ["editor"] });

      await page.reload();
      await page.getByTestId("create-api-token").waitFor();
      expect(await page.getByTestId("api-token").count()).toBe(0);
    });
  });

  it("works without JavaScript: forms post, the QR code is rendered by the server", async () => {
    const { baseUrl } = local;
    const cookie = await signIn(baseUrl, EDITOR.email, NEW_PASSWORD);
    await withPage({ javaScriptEnabled: false }, async ({ page, context }) => {
      await context.addCookies(browserCookies(cookie, baseUrl));
      await page.goto(`${baseUrl}/admin/account`);
      expect(await page.getByTestId("passkey-needs-js").count()).toBe(1);

      const nameForm = page.getByTestId("name-form");
      await nameForm.getByLabel("Full name").fill("Eve Without Script");
      await nameForm.getByRole("button", { name: "Save name" }).click();
      await page.getByTestId("name-result").getByText("Your name has been updated.").waitFor();

      const enable = page.getByTestId("totp-enable-form");
      await enable.getByLabel("Confirm your password").fill(NEW_PASSWORD);
      await enable.getByRole("button", { name: "Set up two-factor authentication" }).click();
      await page.getByTestId("totp-qr").waitFor();
      const secret = (await page.getByTestId("totp-secret").getAttribute("data-secret")) ?? "";
      await expectNoAxeViolations(page);

      const verify = page.getByTestId("totp-verify-form");
      await verify.getByLabel("6-digit code").fill(totp(secret));
      await verify.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByTestId("backup-codes").waitFor();
      expect(await textOf(page.getByTestId("two-factor-status"))).toBe("On");
      await expectNoAxeViolations(page);
    });
  });
});
