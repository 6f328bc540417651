import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../server/db/connection.ts";
import { unsubscribeToken } from "../server/newsletter/tokens.ts";
import { type RunningServer, startServer } from "../tests/helpers/server.ts";
import { closeBrowser, expectNoAxeViolations, textOf, waitForPageScript, withPage } from "./helpers/browser.ts";

/**
 * The public newsletter screens in a real browser, with JavaScript on and off:
 * the home page's subscribe form (honeypot included), the confirm page (which changes
 * nothing until its POST) and the unsubscribe page. Emails are read from the outbox.
 */

const AUTH_SECRET = "e2e-newsletter-secret-0123456789abcdefghij";
let server: RunningServer;
let database: DatabaseHandle;

beforeAll(async () => {
  server = await startServer({ env: { AUTH_SECRET } });
  database = openDatabase({ kind: "sqlite", file: path.join(server.dataDir, "bastion.sqlite") });
});
afterAll(async () => {
  await database?.close();
  await server?.stop();
  await closeBrowser();
});

const db = () => database.db;
const subscriber = (email: string) =>
  db().selectFrom("newsletter_subscribers").selectAll().where("email", "=", email).executeTakeFirst();

async function confirmationToken(email: string): Promise<string> {
  const row = await db()
    .selectFrom("email_outbox")
    .select("text_body")
    .where("to_address", "=", email)
    .where("kind", "=", "newsletter-confirmation")
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  const match = /\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/.exec(row.text_body);
  return match?.[1] as string;
}

async function subscribeOnHome(page: Page, email: string, website = "") {
  await page.goto(`${server.url}/`);
  await waitForPageScript(page);
  await page.getByTestId("newsletter-email").fill(email);
  if (website) {
    await page.locator('input[name="website"]').evaluate((input, value) => {
      (input as HTMLInputElement).value = value;
    }, website);
  }
  await page.getByTestId("newsletter-submit").click();
}

describe.each([
  { javaScript: "on", javaScriptEnabled: true },
  { javaScript: "off", javaScriptEnabled: false },
])("newsletter screens with JavaScript $javaScript", ({ javaScript, javaScriptEnabled }) => {
  const address = (name: string) => `${name}-${javaScript}@example.test`;

  it("subscribes from the home page and shows the message; axe passes", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await subscribeOnHome(page, address("reader"));
      const message = page.getByTestId("newsletter-message");
      await expect.poll(() => textOf(message)).toBe("Please check your email to confirm your subscription");
      expect(await subscriber(address("reader"))).toMatchObject({
        status: "pending",
        consent_source: javaScriptEnabled ? "api" : "form",
      });
      await expectNoAxeViolations(page);
    });
  });

  it("drops a filled honeypot while answering like a success", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await subscribeOnHome(page, address("bot"), "https://spam.example");
      await expect.poll(() => textOf(page.getByTestId("newsletter-message"))).toContain("Please check your email");
      expect(await subscriber(address("bot"))).toBeUndefined();
    });
  });

  it("confirm page: without a token, with a bad token, with a good one (nothing changes until the button)", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${server.url}/newsletter/confirm`);
      expect(await textOf(page.getByTestId("confirm-error"))).toContain(
        "Invalid confirmation link. Please check your email and try again.",
      );
      await expectNoAxeViolations(page);

      await page.goto(`${server.url}/newsletter/confirm?token=not-a-real-token`);
      await page.getByTestId("confirm-button").click();
      await expect.poll(() => textOf(page.getByTestId("confirm-error"))).toContain("invalid or has expired");

      const email = address("confirm");
      await subscribeOnHome(page, email);
      await expect.poll(() => textOf(page.getByTestId("newsletter-message"))).toContain("Please check your email");
      const token = await confirmationToken(email);
      for (const method of ["GET", "HEAD"]) {
        const opened = await fetch(`${server.url}/api/newsletter/confirm?token=${token}`, { method });
        expect(opened.status, method).toBe(405);
      }
      await page.goto(`${server.url}/newsletter/confirm?token=${token}`);
      const button = page.getByTestId("confirm-button");
      await button.waitFor();
      expect(await textOf(page.getByTestId("newsletter-confirm"))).toContain("Nothing happens until you press it.");
      await expectNoAxeViolations(page);
      // Opening the link, and running its page's script (as some mail scanners do), changed nothing.
      expect(await subscriber(email)).toMatchObject({ status: "pending" });
      await button.focus();
      await page.keyboard.press("Enter");
      const success = page.getByTestId("confirm-success");
      await expect
        .poll(() => textOf(success))
        .toContain("Your subscription has been confirmed! Welcome to Premier Updates");
      if (javaScriptEnabled) {
        // The button went away with its state: Tab goes on to the outcome's link.
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Return to Home");
      }
      expect(await textOf(success)).toContain("Return to Home");
      expect(await subscriber(email)).toMatchObject({ status: "active" });
      await expectNoAxeViolations(page);
    });
  });

  it("unsubscribe page: invalid link, the question, then success", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${server.url}/newsletter/unsubscribe`);
      const root = page.getByTestId("newsletter-unsubscribe");
      expect(await textOf(root)).toContain("Invalid Link");
      expect(await textOf(root)).toContain("This unsubscribe link is invalid. Please check your email and try again.");
      await expectNoAxeViolations(page);

      const email = address("leaver");
      await subscribeOnHome(page, email);
      await expect.poll(() => textOf(page.getByTestId("newsletter-message"))).toContain("Please check your email");
      const row = await subscriber(email);
      await page.goto(`${server.url}/newsletter/unsubscribe?token=${unsubscribeToken(AUTH_SECRET, row?.id as string)}`);
      expect(await textOf(page.getByTestId("keep-subscription"))).toBe("Keep Subscription");
      await expectNoAxeViolations(page);
      await page.getByTestId("unsubscribe-button").focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => textOf(page.getByTestId("unsubscribe-success"))).toContain("Unsubscribed Successfully");
      expect(await subscriber(email)).toMatchObject({ status: "unsubscribed" });
      if (javaScriptEnabled) {
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Return to Home");
      }
      await expectNoAxeViolations(page);

      await page.goto(`${server.url}/newsletter/unsubscribe?token=forged.token`);
      await page.getByTestId("unsubscribe-button").click();
      await expect
        .poll(() => textOf(page.getByTestId("unsubscribe-invalid")))
        .toContain("This unsubscribe link is invalid. Please check your email and try again.");
    });
  });
});

describe("newsletter form with JavaScript", () => {
  it("shows Subscribing... while submitting and validates the address inline", async () => {
    await withPage({ javaScriptEnabled: true }, async ({ page }) => {
      await page.goto(`${server.url}/`);
      await waitForPageScript(page);
      await page.getByTestId("newsletter-email").fill("not an address");
      await page.getByTestId("newsletter-submit").click();
      expect(await textOf(page.getByTestId("newsletter-message"))).toBe("Please enter a valid email address");
      // The request is held until the busy label has been seen, then let through.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/api/newsletter/subscribe", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByTestId("newsletter-email").fill("slow@example.test");
      await page.getByTestId("newsletter-submit").focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => textOf(page.getByTestId("newsletter-submit"))).toBe("Subscribing...");
      release();
      await expect.poll(() => textOf(page.getByTestId("newsletter-message"))).toContain("Please check your email");
      // Disabled while it was busy, the button has the focus back.
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("newsletter-submit");
    });
  });

  it("shows the success message for 6 seconds, then the form is idle again", async () => {
    await withPage({ javaScriptEnabled: true }, async ({ page }) => {
      await subscribeOnHome(page, "six-seconds@example.test");
      const message = page.getByTestId("newsletter-message");
      await message.waitFor();
      const shownAt = Date.now();
      expect(await textOf(message)).toBe("Please check your email to confirm your subscription");
      expect(await page.getByTestId("newsletter-email").inputValue()).toBe("");
      await message.waitFor({ state: "detached", timeout: 9_000 });
      const elapsed = Date.now() - shownAt;
      expect(elapsed).toBeGreaterThanOrEqual(5_500);
      expect(elapsed).toBeLessThan(7_500);
      expect(page.url()).toBe(`${server.url}/`);
      expect(await textOf(page.getByTestId("newsletter-submit"))).toBe("Subscribe");
    });
  });

  it("the confirm and unsubscribe pages' forms answer a bad token with 400 and their message", async () => {
    const postForm = (path: string, token: string) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams({ token }),
      });
    const confirm = await postForm("/newsletter/confirm?token=not-a-real-token", "not-a-real-token");
    expect(confirm.status).toBe(400);
    expect(await confirm.text()).toContain("invalid or has expired");
    const unsubscribe = await postForm("/newsletter/unsubscribe?token=forged.token", "forged.token");
    expect(unsubscribe.status).toBe(400);
    expect(await unsubscribe.text()).toContain(
      "This unsubscribe link is invalid. Please check your email and try again.",
    );
    const blank = await postForm("/newsletter/unsubscribe?token=forged.token", " ");
    expect(blank.status).toBe(400);
  });

  it("one-click unsubscribe (RFC 8058) over HTTP", async () => {
    await withPage({ javaScriptEnabled: true }, async ({ page }) => {
      await subscribeOnHome(page, "oneclick@example.test");
      await expect.poll(() => textOf(page.getByTestId("newsletter-message"))).toContain("Please check your email");
    });
    const row = await subscriber("oneclick@example.test");
    const token = unsubscribeToken(AUTH_SECRET, row?.id as string);
    const response = await fetch(`${server.url}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status).toBe(200);
    expect(await subscriber("oneclick@example.test")).toMatchObject({ status: "unsubscribed" });
    const confirm = await fetch(`${server.url}/api/newsletter/confirm?token=bad`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: "{}",
    });
    expect(confirm.status).toBe(400);
    expect(await confirm.json()).toMatchObject({ error: expect.any(String) });
  });
});
