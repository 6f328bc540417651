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
import { freePort } from "../tests/helpers/free-port.ts";
import { checkState, chooseTheme, expectKeyboardDialog, LOOKS, type Theme, toast } from "./helpers/admin-screens.ts";
import { closeBrowser, launchBrowser, type TestPage, textOf, withPage } from "./helpers/browser.ts";
import { visit, waitForHydration } from "./helpers/hydration.ts";

/**
 * The account page (/admin/account) in a real browser: TOTP two-factor enrolment and
 * sign-in with a code and with a one-time backup code, new backup codes and turning it
 * off in dialogs, passkeys with Chromium's virtual authenticator (renamed in a dialog,
 * removed after a confirmation), sessions, name and password with their field
 * messages, API tokens; sign-in codes by text message (enrolled, then used at sign-in,
 * read from the SMS outbox); every state in the light theme at 1280 px and the dark
 * theme at 390 px, with axe. TOTP codes are computed here from the enrolment's secret
 * (RFC 6238).
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
// One server for the file, and helpers
// ---------------------------------------------------------------------------------

const OWNER = { email: "olivia.owner@example.com", name: "Olivia Owner", role: "admin" as const };
const EDITOR = { email: "eve.editor@example.com", name: "Eve Editor", role: "editor" as const };
const TEXTER = { email: "tess.texter@example.com", name: "Tess Texter", role: "editor" as const };
const TOURISTS: Record<Theme, { email: string; name: string; role: "editor" }> = {
  light: { email: "lee.light@example.com", name: "Lee Light", role: "editor" },
  dark: { email: "dana.dark@example.com", name: "Dana Dark", role: "editor" },
};

let site: SiteWithAccounts;
let baseUrl: string;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  [site] = await Promise.all([
    startSiteWithAccounts({
      dialect: "sqlite",
      accounts: [OWNER, EDITOR, TEXTER, TOURISTS.light, TOURISTS.dark],
      server: { env: { PORT: String(port), PUBLIC_URL: baseUrl } },
    }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await closeBrowser();
  await site?.stop();
});

/** Sign-in and two-factor codes are rate limited per client IP (5 a minute); every test here comes from 127.0.0.1. */
async function forgetRateLimits() {
  const database = await site.openDatabase();
  try {
    await sql`delete from ${sql.table("rateLimit")}`.execute(database.db);
  } finally {
    await database.close();
  }
}

beforeEach(forgetRateLimits);

/**
 * Waits for the page's own text (not a toast's) to say `text`; a failure shows what the
 * page said instead. Generous: browser test files share two cores in CI.
 */
async function expectInMain(page: Page, text: string) {
  await expect.poll(() => textOf(page.getByRole("main")), { timeout: 30_000 }).toContain(text);
}

const userId = (email: string) => site.users.get(email)?.id as string;

async function signInWithForm(page: Page, email: string, password = TEST_PASSWORD) {
  await visit(page, `${baseUrl}/auth?${new URLSearchParams({ redirectTo: "/admin/account" })}`);
  const form = page.getByTestId("sign-in-form");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
}

/** On the account page, rendered and hydrated (a client-side navigation changes the URL before it renders). */
async function atAccountPage(page: Page) {
  await page.waitForURL(`${baseUrl}/admin/account`);
  await page.getByRole("heading", { level: 1, name: "Account" }).waitFor();
  await waitForHydration(page);
}

/** The account page of a session made over HTTP, in a look. */
async function openAccount(testPage: TestPage, email: string, theme: Theme, password = TEST_PASSWORD) {
  const cookie = await signIn(baseUrl, email, { password });
  await testPage.context.addCookies(browserCookies(cookie, baseUrl));
  await chooseTheme(testPage, baseUrl, theme);
  await testPage.page.goto(`${baseUrl}/admin/account`);
  await atAccountPage(testPage.page);
  return testPage.page;
}

async function signOutWithMenu(page: Page) {
  await page.getByTestId("account-menu-toggle").click();
  await page.getByTestId("sign-out").click();
  await page.waitForURL((url) => url.pathname === "/auth");
}

async function auditActions(id: string): Promise<string[]> {
  const database = await site.openDatabase();
  try {
    const rows = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("user_id", "=", id)
      .orderBy("at")
      .execute();
    return rows.map((row) => row.action);
  } finally {
    await database.close();
  }
}

/** The code of the newest text message to a number, from the SMS outbox (no provider in tests). */
async function lastTextedCode(to: string): Promise<string> {
  const database = await site.openDatabase();
  try {
    const row = await database.db
      .selectFrom("sms_outbox")
      .select("body")
      .where("to_number", "=", to)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return /\b(\d{6})\b/.exec(row.body ?? "")?.[1] ?? "";
  } finally {
    await database.close();
  }
}

/** Enrols a phone number on the account page and confirms it with the texted code. */
async function enrolPhone(page: Page, typed: string, e164: string) {
  const enrol = page.getByTestId("phone-enrol-form");
  await enrol.getByLabel("Mobile phone number").fill(typed);
  await enrol.getByLabel("Confirm your password").fill(TEST_PASSWORD);
  await enrol.getByRole("button", { name: "Text me a code" }).click();
  const verify = page.getByTestId("phone-verify-form");
  await verify.waitFor();
  return {
    verify,
    async confirm() {
      await verify.getByLabel("Code from the text message").fill(await lastTextedCode(e164));
      await verify.getByRole("button", { name: "Confirm and turn on" }).click();
      await toast(page, "Sign-in codes by text message are on.").waitFor();
      // The action's answer can show before the page's data is reloaded.
      await expect.poll(() => textOf(page.getByTestId("phone-factor-status"))).toBe("On");
    },
  };
}

async function sessionOf(cookie: string) {
  const response = await fetch(`${baseUrl}/api/auth/get-session`, { headers: { Cookie: cookie } });
  return (await response.json()) as { session?: { id: string } } | null;
}

/** A virtual authenticator (user verification included) in the page's browser context. */
async function addVirtualAuthenticator(testPage: TestPage) {
  const cdp = await testPage.context.newCDPSession(testPage.page);
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
}

// ---------------------------------------------------------------------------------
// Two-factor
// ---------------------------------------------------------------------------------

describe("two-factor authentication (TOTP)", () => {
  /** From the enrolment test, for the test after it. */
  let secret = "";
  let backupCodes: string[] = [];

  it("enrols with a QR code and a confirming code, then sign-in asks for a code; a backup code works once", async () => {
    await withPage({}, async ({ page }) => {
      await signInWithForm(page, OWNER.email);
      await atAccountPage(page);
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

      // 3. A wrong code is refused beside its field, and the QR code stays.
      const verify = page.getByTestId("totp-verify-form");
      await verify.getByLabel("6-digit code").fill(totp(secret, Date.now() + 10 * 60_000));
      await verify.getByRole("button", { name: "Confirm and turn on" }).click();
      await verify.getByTestId("field-error").getByText("That code is not correct").waitFor();
      expect(await verify.getByLabel("6-digit code").getAttribute("aria-invalid")).toBe("true");
      expect(await qr.isVisible()).toBe(true);
      expect(await textOf(card.getByTestId("two-factor-status"))).toBe("Off");

      // 4. The right code turns it on, and the backup codes are shown once.
      await verify.getByLabel("6-digit code").fill(totp(secret));
      await verify.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByTestId("backup-codes").waitFor();
      backupCodes = await page.getByTestId("backup-code").allTextContents();
      expect(backupCodes.length).toBeGreaterThanOrEqual(8);
      await toast(page, "Two-factor authentication is on.").waitFor();
      // The action's answer can show before the page's data is reloaded.
      await expect.poll(() => textOf(card.getByTestId("two-factor-status"))).toBe("On");
      expect(await auditActions(userId(OWNER.email))).toContain("account.two-factor-enabled");

      // Still signed in on the rotated session; the codes are not shown again.
      await page.reload();
      await card.getByTestId("two-factor-status").waitFor();
      expect(await textOf(card.getByTestId("two-factor-status"))).toBe("On");
      expect(await page.getByTestId("backup-codes").count()).toBe(0);
      await waitForHydration(page);

      // 5. Sign-in now asks for the code.
      await signOutWithMenu(page);
      await signInWithForm(page, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      const twoFactorForm = page.getByTestId("two-factor-form");
      await twoFactorForm.getByLabel("Authentication code").fill(totp(secret));
      await twoFactorForm.getByRole("button", { name: "Verify" }).click();
      await atAccountPage(page);

      // 6. A backup code works once.
      const [backupCode] = backupCodes as [string];
      await signOutWithMenu(page);
      await signInWithForm(page, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      await page.getByRole("link", { name: "Use a backup code instead" }).click();
      await page.getByLabel("Backup code").fill(backupCode);
      await page.getByRole("button", { name: "Verify" }).click();
      await atAccountPage(page);

      await signOutWithMenu(page);
      await signInWithForm(page, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      await page.getByRole("link", { name: "Use a backup code instead" }).click();
      await page.getByLabel("Backup code").fill(backupCode);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("The backup code is not valid.").first().waitFor();
      expect(new URL(page.url()).pathname).toBe("/auth/two-factor");
    });
  });

  it("creates new backup codes in a dialog (the old ones stop working) and turns two-factor off with the password", async () => {
    expect(secret, "the enrolment test ran first").not.toBe("");
    await withPage({}, async ({ page }) => {
      await signInWithForm(page, OWNER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      await page.getByTestId("two-factor-form").getByLabel("Authentication code").fill(totp(secret));
      await page.getByRole("button", { name: "Verify" }).click();
      await atAccountPage(page);

      // New backup codes: a wrong password is refused in the dialog, the right one shows new codes there once.
      await page.getByRole("button", { name: "Create new backup codes" }).click();
      const dialog = page.getByRole("dialog", { name: "Create new backup codes" });
      const regenerate = dialog.getByTestId("backup-codes-form");
      await regenerate.getByLabel("Confirm your password").fill("not the password at all");
      await regenerate.getByRole("button", { name: "Create new backup codes" }).click();
      await regenerate.getByTestId("field-error").getByText("The password is not correct.").waitFor();
      await regenerate.getByLabel("Confirm your password").fill(TEST_PASSWORD);
      await regenerate.getByRole("button", { name: "Create new backup codes" }).click();
      await dialog.getByTestId("backup-codes").waitFor();
      const fresh = await dialog.getByTestId("backup-code").allTextContents();
      expect(fresh.length).toBeGreaterThanOrEqual(8);
      expect(fresh).not.toContain(backupCodes[1]);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect(await page.getByTestId("backup-codes").count()).toBe(0);

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

      // Turn off: the password again, in a dialog, from the keyboard: what is typed goes into its field.
      await page.getByRole("button", { name: "Turn off two-factor authentication" }).focus();
      await page.keyboard.press("Enter");
      const disable = page.getByRole("dialog", { name: "Turn off two-factor authentication" });
      await disable.waitFor();
      await page.keyboard.type(TEST_PASSWORD);
      await page.keyboard.press("Enter");
      await toast(page, "Two-factor authentication is off.").waitFor();
      await disable.waitFor({ state: "hidden" });
      await expect.poll(() => textOf(page.getByTestId("two-factor-status"))).toBe("Off");
      const actions = await auditActions(userId(OWNER.email));
      // Turned on once: a code checked at sign-in is not an account change.
      expect(actions.filter((action) => action === "account.two-factor-enabled")).toHaveLength(1);
      expect(actions).toContain("account.backup-codes-regenerated");
      expect(actions).toContain("account.two-factor-disabled");

      // Sign-in asks for the password only again.
      await signOutWithMenu(page);
      await signInWithForm(page, OWNER.email);
      await atAccountPage(page);
    });
  });
});

describe("sign-in codes by text message", () => {
  const PHONE = "+447700900123";

  it("enrols a number with a texted code, then signs in with a new code; a used or expired code and the send limit are refused", async () => {
    await withPage({}, async ({ page }) => {
      await signInWithForm(page, TEXTER.email);
      await atAccountPage(page);
      const card = page.getByTestId("phone-factor");
      expect(await textOf(card.getByTestId("phone-factor-status"))).toBe("Off");
      expect(await textOf(card.getByTestId("phone-factor-warning"))).toContain(
        "A text message is a weaker second factor than an authenticator app or a passkey",
      );

      // A number that is not in international format is refused beside its field.
      const enrol = page.getByTestId("phone-enrol-form");
      await enrol.getByLabel("Mobile phone number").fill("07700 900123");
      await enrol.getByLabel("Confirm your password").fill(TEST_PASSWORD);
      await enrol.getByRole("button", { name: "Text me a code" }).click();
      await enrol.getByTestId("field-error").getByText("Enter the number in international format").waitFor();

      // The texted code confirms the number; a wrong one is refused beside its field.
      const { verify, confirm } = await enrolPhone(page, "+44 7700 900123", PHONE);
      await verify.getByLabel("Code from the text message").fill("000000");
      await verify.getByRole("button", { name: "Confirm and turn on" }).click();
      await verify.getByTestId("field-error").getByText("That code is not correct.").waitFor();
      await confirm();
      expect(await textOf(card)).toContain(PHONE);
      expect(await auditActions(userId(TEXTER.email))).toContain("account.phone-factor-enabled");

      // Sign-in now asks for a texted code: sent on request, typed from the keyboard.
      await signOutWithMenu(page);
      await signInWithForm(page, TEXTER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      // A client-side navigation changes the URL before the page renders: wait for the page itself.
      await page.getByRole("heading", { level: 1, name: "Two-factor authentication" }).waitFor();
      expect(await textOf(page.getByRole("main"))).toContain("ending in 0123");
      expect(await page.getByLabel("Authentication code").count()).toBe(0);
      await page.getByRole("button", { name: "Text me a code" }).focus();
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.searchParams.get("sent") === "1");
      const used = await lastTextedCode(PHONE);
      await page.getByLabel("Code from the text message").focus();
      await page.keyboard.type(used);
      await page.keyboard.press("Enter");
      await atAccountPage(page);

      // The same code does not work twice. (This test checks more codes than the per-IP limit lets through in a minute.)
      await forgetRateLimits();
      await signOutWithMenu(page);
      await signInWithForm(page, TEXTER.email);
      await page.waitForURL((url) => url.pathname === "/auth/two-factor");
      await page.goto(`${baseUrl}/auth/two-factor?method=sms&sent=1&redirectTo=%2Fadmin%2Faccount`);
      await page.getByLabel("Code from the text message").fill(used);
      await page.getByRole("button", { name: "Verify" }).click();
      await expectInMain(page, "This code has expired or was already used. Send a new code.");

      // A code past its five minutes is refused too.
      await page.getByRole("button", { name: "Send a new code" }).click();
      await page.getByTestId("form-notice").getByText("Code sent").waitFor();
      const expiring = await lastTextedCode(PHONE);
      const database = await site.openDatabase();
      try {
        await sql`update verification set ${sql.ref("expiresAt")} = ${new Date(Date.now() - 1000).toISOString()} where identifier like ${"2fa-otp-%"}`.execute(
          database.db,
        );
      } finally {
        await database.close();
      }
      await page.getByLabel("Code from the text message").fill(expiring);
      await page.getByRole("button", { name: "Verify" }).click();
      await expectInMain(page, "This code has expired or was already used. Send a new code.");

      // Three texts to the number in 15 minutes (enrolment and two sign-ins): a fourth is refused.
      await page.getByRole("button", { name: "Send a new code" }).click();
      await expectInMain(page, "Too many codes were sent to this number. Try again in 15 minutes.");
      expect(new URL(page.url()).pathname).toBe("/auth/two-factor");
    });
  });
});

// ---------------------------------------------------------------------------------
// Every state of the page, in both looks
// ---------------------------------------------------------------------------------

describe.each(LOOKS)("the account page in the $theme theme", ({ theme, viewport }) => {
  const tourist = TOURISTS[theme];

  it("shows every state and dialog accessibly, without sideways scrolling", async () => {
    await withPage({ viewport }, async (testPage) => {
      await addVirtualAuthenticator(testPage);
      const page = await openAccount(testPage, tourist.email, theme);
      await page.getByTestId("add-passkey").waitFor();
      await checkState(page, theme, "the account page");

      // Field messages from the browser, beside their fields.
      const passwordForm = page.getByTestId("password-form");
      await passwordForm.getByLabel("Current password").fill(TEST_PASSWORD);
      await passwordForm.getByLabel("New password", { exact: true }).fill("short");
      await passwordForm.getByLabel("Confirm new password").fill("other");
      await passwordForm.getByRole("button", { name: "Change password" }).click();
      await passwordForm.getByText("Password must be at least 12 characters long.").waitFor();
      expect(await passwordForm.getByLabel("New password", { exact: true }).getAttribute("aria-invalid")).toBe("true");
      await checkState(page, theme, "the password form with field messages");

      // Two-factor: the QR code, then the backup codes once it is on.
      const enable = page.getByTestId("totp-enable-form");
      await enable.getByLabel("Confirm your password").fill(TEST_PASSWORD);
      await enable.getByRole("button", { name: "Set up two-factor authentication" }).click();
      await page.getByTestId("totp-qr").waitFor();
      await checkState(page, theme, "the two-factor enrolment");
      const secret = (await page.getByTestId("totp-secret").getAttribute("data-secret")) ?? "";
      await page.getByTestId("totp-verify-form").getByLabel("6-digit code").fill(totp(secret));
      await page.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByTestId("backup-codes").waitFor();
      await expect.poll(() => textOf(page.getByTestId("two-factor-status"))).toBe("On");
      await checkState(page, theme, "two-factor on, with the backup codes");

      // The dialogs of two-factor: from the keyboard, then each open.
      const regenerate = page.getByRole("button", { name: "Create new backup codes" });
      await expectKeyboardDialog(page, regenerate);
      await regenerate.click();
      const codesDialog = page.getByRole("dialog", { name: "Create new backup codes" });
      await codesDialog.getByLabel("Confirm your password").fill(TEST_PASSWORD);
      await codesDialog.getByRole("button", { name: "Create new backup codes" }).click();
      await codesDialog.getByTestId("backup-codes").waitFor();
      await checkState(page, theme, "the backup codes dialog with new codes");
      await codesDialog.getByRole("button", { name: "Done" }).click();
      await codesDialog.waitFor({ state: "hidden" });
      // The codes shown since setting it up no longer work: the card stops showing them.
      expect(await page.getByTestId("backup-codes").count()).toBe(0);
      await page.getByRole("button", { name: "Turn off two-factor authentication" }).click();
      await page.getByRole("dialog", { name: "Turn off two-factor authentication" }).waitFor();
      await checkState(page, theme, "the turn-off dialog");
      await page.keyboard.press("Escape");

      // Sign-in codes by text message: the code step, then on, then the removal dialog from the keyboard.
      const phone = theme === "light" ? "+12025550101" : "+12025550102";
      const { confirm } = await enrolPhone(page, phone, phone);
      await checkState(page, theme, "the phone number waiting for its code");
      await confirm();
      await checkState(page, theme, "codes by text message on");
      const removePhone = page.getByRole("button", { name: "Remove phone number" });
      await expectKeyboardDialog(page, removePhone);
      await removePhone.click();
      await page.getByRole("dialog", { name: "Remove your phone number" }).waitFor();
      await checkState(page, theme, "the phone removal dialog");
      const removal = page.getByRole("dialog", { name: "Remove your phone number" });
      expect(
        await removal.getByLabel("Confirm your password").evaluate((field) => field === document.activeElement),
      ).toBe(true);
      await page.keyboard.type(TEST_PASSWORD);
      await page.keyboard.press("Enter");
      await toast(page, "Your phone number has been removed.").waitFor();
      await expect.poll(() => textOf(page.getByTestId("phone-factor-status"))).toBe("Off");
      expect(await auditActions(userId(tourist.email))).toContain("account.phone-factor-removed");

      // A passkey: added with the virtual authenticator, renamed in a dialog, removed after a confirmation.
      const passkeys = page.getByTestId("passkeys");
      await passkeys.getByLabel("Name (optional)").fill(`Key of ${tourist.name}`);
      await passkeys.getByTestId("add-passkey").click();
      await passkeys.getByTestId("add-passkey-result").getByText("Passkey added").waitFor();
      await passkeys.getByTestId("passkey-label").getByText(`Key of ${tourist.name}`).waitFor();
      await passkeys.getByRole("button", { name: `Rename Key of ${tourist.name}` }).click();
      const rename = page.getByRole("dialog", { name: `Rename Key of ${tourist.name}` });
      await rename.getByLabel("Name").fill("");
      await rename.getByRole("button", { name: "Save name" }).click();
      await rename.getByTestId("field-error").getByText("Name is required.").waitFor();
      await checkState(page, theme, "the rename dialog with a field message");
      await rename.getByLabel("Name").fill("Laptop key");
      await rename.getByRole("button", { name: "Save name" }).click();
      await toast(page, "Passkey renamed.").waitFor();
      await passkeys.getByTestId("passkey-label").getByText("Laptop key").waitFor();

      await passkeys.getByRole("button", { name: "Remove Laptop key" }).click();
      const remove = page.getByRole("alertdialog", { name: "Remove Laptop key?" });
      expect(await textOf(remove)).toContain("This action cannot be undone");
      await checkState(page, theme, "the passkey removal confirmation");
      await remove.getByRole("button", { name: "Remove passkey" }).click();
      await toast(page, "Passkey removed.").waitFor();
      await passkeys.getByTestId("no-passkeys").waitFor();
      const actions = await auditActions(userId(tourist.email));
      expect(actions).toContain("account.passkey-renamed");
      expect(actions).toContain("account.passkey-removed");

      await page.getByTestId("create-api-token").click();
      await page.getByTestId("api-token").waitFor();
      await checkState(page, theme, "the API token shown once");
    });
  });
});

// ---------------------------------------------------------------------------------
// Passkey sign-in, sessions, profile, password, API tokens
// ---------------------------------------------------------------------------------

describe("the account page", () => {
  const NEW_PASSWORD = "a brand new passphrase for eve";

  it("registers a passkey with a virtual authenticator and signs in with it", async () => {
    await withPage({}, async (testPage) => {
      await addVirtualAuthenticator(testPage);
      const { page } = testPage;
      await signInWithForm(page, EDITOR.email);
      await atAccountPage(page);
      const passkeys = page.getByTestId("passkeys");
      await passkeys.getByTestId("no-passkeys").waitFor();
      await passkeys.getByLabel("Name (optional)").fill("Virtual key");
      await passkeys.getByTestId("add-passkey").click();
      await passkeys.getByTestId("add-passkey-result").getByText("Passkey added").waitFor();
      await passkeys.getByTestId("passkey-label").getByText("Virtual key").waitFor();
      expect(await passkeys.getByTestId("passkey-row").count()).toBe(1);
      expect(await auditActions(userId(EDITOR.email))).toContain("account.passkey-added");

      // Sign out, then sign in with the passkey alone.
      await signOutWithMenu(page);
      await waitForHydration(page);
      await page.getByTestId("passkey-sign-in").click();
      await page.waitForURL(`${baseUrl}/admin`);
      await page.goto(`${baseUrl}/admin/account`);
      await page.getByTestId("this-device").waitFor();
    });
  });

  it("lists the sessions with this device marked, and signs out another one or all others", async () => {
    const elsewhere = await signIn(baseUrl, EDITOR.email);
    const elsewhereId = (await sessionOf(elsewhere))?.session?.id as string;
    expect(elsewhereId).toBeTruthy();

    await withPage({}, async ({ page }) => {
      await signInWithForm(page, EDITOR.email);
      await atAccountPage(page);
      const sessions = page.getByTestId("sessions");
      const current = sessions.locator('[data-testid="session-row"][data-current="true"]');
      expect(await current.count()).toBe(1);
      expect(await textOf(current)).toContain("This device");
      expect(await textOf(current)).toContain("127.0.0.1");
      expect(await current.getByTestId("revoke-session").count()).toBe(0);
      const before = await sessions.getByTestId("session-row").count();
      expect(before).toBeGreaterThanOrEqual(2);

      // Sign out one other session (the HTTP client's; its user agent is not a browser's).
      const other = sessions
        .getByTestId("session-row")
        .filter({ hasNot: page.getByTestId("this-device") })
        .first();
      await other.getByTestId("revoke-session").click();
      await toast(page, "The session has been signed out.").waitFor();
      await expect.poll(() => sessions.getByTestId("session-row").count()).toBe(before - 1);
      expect(await auditActions(userId(EDITOR.email))).toContain("account.session-revoked");

      // Then all the others at once.
      const another = await signIn(baseUrl, EDITOR.email);
      await page.reload();
      await waitForHydration(page);
      await sessions.getByTestId("revoke-other-sessions").click();
      await toast(page, "All your other sessions have been signed out.").waitFor();
      await expect.poll(() => sessions.getByTestId("session-row").count()).toBe(1);
      expect(await sessionOf(another)).toBeNull();
      expect(await sessionOf(elsewhere)).toBeNull();

      // This one still works.
      await page.reload();
      await page.getByTestId("this-device").waitFor();
    });
  });

  it("changes the name and the password (the server's rules beside the fields), signing out other sessions", async () => {
    const elsewhere = await signIn(baseUrl, EDITOR.email);

    await withPage({}, async ({ page }) => {
      await signInWithForm(page, EDITOR.email);
      await atAccountPage(page);

      const nameForm = page.getByTestId("name-form");
      await nameForm.getByLabel("Full name").fill("  Eve   Renamed ");
      await nameForm.getByRole("button", { name: "Save name" }).click();
      await toast(page, "Your name has been updated.").waitFor();
      await page.getByTestId("account-menu-name").getByText("Eve Renamed").waitFor();
      await expect.poll(() => nameForm.getByLabel("Full name").inputValue()).toBe("Eve Renamed");

      const passwordForm = page.getByTestId("password-form");
      const fill = async (current: string, next: string, confirm: string) => {
        await passwordForm.getByLabel("Current password").fill(current);
        await passwordForm.getByLabel("New password", { exact: true }).fill(next);
        await passwordForm.getByLabel("Confirm new password").fill(confirm);
        await passwordForm.getByRole("button", { name: "Change password" }).click();
      };
      const fieldError = (label: string) => passwordForm.getByTestId("field-error").filter({ hasText: label }).first();
      // Only the server knows the common passwords and the current one.
      await fill(TEST_PASSWORD, "password1234", "password1234");
      await fieldError("This password is too common").waitFor();
      await fill(TEST_PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}!`);
      await fieldError("The two new passwords do not match.").waitFor();
      await fill("not my password at all", NEW_PASSWORD, NEW_PASSWORD);
      await fieldError("The password is not correct.").waitFor();
      expect(await passwordForm.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");
      await fill(TEST_PASSWORD, NEW_PASSWORD, NEW_PASSWORD);
      await toast(page, "Your password has been changed and your other sessions signed out.").waitFor();
      expect(await sessionOf(elsewhere)).toBeNull();
      const actions = await auditActions(userId(EDITOR.email));
      expect(actions).toContain("account.name-changed");
      expect(actions).toContain("account.password-changed");

      // Still signed in here; the new password signs in.
      await page.reload();
      await page.getByTestId("this-device").waitFor();
      await waitForHydration(page);
      await signOutWithMenu(page);
      await signInWithForm(page, EDITOR.email, NEW_PASSWORD);
      await atAccountPage(page);
    });
  });

  it("creates an API token shown once with its expiry, which /api/me accepts", async () => {
    await withPage({}, async (testPage) => {
      const page = await openAccount(testPage, EDITOR.email, "light", NEW_PASSWORD);
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
});
