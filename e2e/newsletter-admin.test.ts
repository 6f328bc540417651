import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations, textOf, withPage } from "./helpers/browser.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/newsletter in a real browser (issue 5, "Admin"): the counters, the three tabs
 * (with and without JavaScript), search and filter, delete and suppression removal
 * with their toasts, resend confirmation, retry of a failed email, CSV export, the
 * editor's Access Denied, and axe on every screen.
 */

const ACCOUNTS = {
  admin: { email: "ada@example.com", name: "Ada Lovelace", role: "admin" as const },
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
};

const recent = new Date(Date.now() - 60_000).toISOString();

const adminSite = setUpSignedInSite({
  accounts: ACCOUNTS,
  subnet: "10.0.5",
  seed: async ({ db }) => {
    await db
      .insertInto("newsletter_subscribers")
      .values([
        {
          id: "sub-ada",
          email: "ada.reader@example.test",
          status: "active",
          subscribed_at: "2026-01-05T10:00:00.000Z",
          confirmed_at: "2026-01-05T10:05:00.000Z",
        },
        { id: "sub-bob", email: "bob@example.test", status: "pending", subscribed_at: recent },
        {
          id: "sub-cy",
          email: "cy@example.test",
          status: "unsubscribed",
          subscribed_at: "2025-12-01T00:00:00.000Z",
        },
        { id: "sub-dee", email: "dee@example.test", status: "bounced", subscribed_at: "2025-11-11T00:00:00.000Z" },
        { id: "sub-eve", email: "eve@example.test", status: "active", subscribed_at: recent },
      ])
      .execute();
    await db
      .insertInto("newsletter_suppressions")
      .values([
        {
          id: "sup-1",
          email: "dee@example.test",
          reason: "Hard bounce: 550 no such user",
          added_at: "2026-02-03T00:00:00.000Z",
        },
        { id: "sup-2", email: "spam@example.test", reason: "Complaint", added_at: "2026-02-04T00:00:00.000Z" },
      ])
      .execute();
    await db
      .insertInto("email_outbox")
      .values({
        id: "email-failed",
        idempotency_key: "test:failed",
        kind: "newsletter-confirmation",
        to_address: "failed@example.test",
        subject: "Confirm",
        html_body: "<p>Confirm</p>",
        text_body: "Confirm",
        status: "failed",
        attempts: 5,
        last_error: "421 Try again later",
      })
      .execute();
  },
});

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Waits for running animations and transitions (toasts sliding in) to end, so that axe sees final colours. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

describe("an editor", () => {
  it("gets Access Denied on the newsletter page and its CSV export", async () => {
    await withPage({}, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "editor");
      const response = await page.goto(`${adminSite.base}/admin/newsletter`);
      expect(response?.status()).toBe(403);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Access Denied");
      expect(await textOf(page.getByTestId("access-denied-reason"))).toBe("Admin privileges are required.");
      await expectNoAxeViolations(page);
    });
    const csv = await fetch(`${adminSite.base}/api/admin/newsletter/export.csv`, {
      headers: { Cookie: adminSite.sessions.editor },
      redirect: "manual",
    });
    expect(csv.status).toBe(403);
    expect((await fetch(`${adminSite.base}/api/admin/newsletter/export.csv`)).status).toBe(401);
  });
});

describe.each([
  { javaScript: "on", javaScriptEnabled: true },
  { javaScript: "off", javaScriptEnabled: false },
])("an admin with JavaScript $javaScript", ({ javaScriptEnabled }) => {
  it("sees the counters, the subscribers, and can search, filter and switch tabs", async () => {
    await withPage({ javaScriptEnabled }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      const response = await page.goto(`${adminSite.base}/admin/newsletter`);
      expect(response?.status()).toBe(200);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Newsletter");
      const value = (key: string) => textOf(page.getByTestId(`stat-${key}-value`));
      expect(await value("total")).toMatch(/^\d+$/);
      expect(Number(await value("active"))).toBeGreaterThanOrEqual(1);
      expect(await textOf(page.getByTestId("stat-new-this-month"))).toMatch(/^\+\d+ new this month$/);
      expect(await textOf(page.getByTestId("active-subscribers-summary"))).toMatch(
        /^Active subscribers over the last 30 days: \d+ on \w+ \d+, \d+ on \w+ \d+\.$/,
      );

      const table = page.getByTestId("subscribers-table");
      expect(await textOf(table.getByTestId("subscriber-ada.reader@example.test"))).toContain("Jan 5, 2026");
      expect(await textOf(table.getByTestId("subscriber-ada.reader@example.test"))).toContain("Active");
      // Resend only for pending subscribers.
      expect(await table.getByRole("button", { name: /^Resend confirmation/ }).count()).toBe(1);
      await expectNoAxeViolations(page);

      await page.getByLabel("Search by email").fill("ADA.READER");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/q=ADA.READER/);
      await page.getByTestId("subscriber-bob@example.test").waitFor({ state: "detached" });
      await page.getByTestId("subscriber-ada.reader@example.test").waitFor();
      expect(await page.getByTestId("subscribers-table").locator("tbody tr").count()).toBe(1);

      await page.goto(`${adminSite.base}/admin/newsletter?status=bounced`);
      expect(await page.getByTestId("subscribers-table").locator("tbody tr").count()).toBe(1);
      expect(await textOf(page.getByTestId("subscribers-table"))).toContain("dee@example.test");

      await page.getByTestId("tab-suppressions").click();
      await page.getByTestId("suppressions-table").waitFor();
      expect(await page.getByTestId("tab-suppressions").getAttribute("aria-current")).toBe("page");
      expect(await textOf(page.getByTestId("suppression-dee@example.test"))).toContain("Hard bounce: 550 no such user");
      expect(await textOf(page.getByTestId("suppression-dee@example.test"))).toContain("Feb 3, 2026");
      await expectNoAxeViolations(page);

      await page.getByTestId("tab-emails").click();
      await page.getByTestId("email-email-failed").waitFor();
      expect(await textOf(page.getByTestId("email-email-failed"))).toContain("failed@example.test");
      await expectNoAxeViolations(page);
    });
  });
});

describe("an admin's actions", () => {
  it("deletes a subscriber after the irreversible-action confirmation, with a toast", async () => {
    await withPage({}, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await page.goto(`${adminSite.base}/admin/newsletter`);
      const row = page.getByTestId("subscriber-eve@example.test");
      await row.getByLabel("Delete eve@example.test").click();
      expect(await textOf(row)).toContain("This action is irreversible.");
      await expectNoAxeViolations(page);
      await row.getByRole("button", { name: "Delete permanently" }).click();
      await toast(page, "The subscriber has been removed successfully.").waitFor();
      await row.waitFor({ state: "detached" });
      await settled(page);
      await expectNoAxeViolations(page);
    });
  });

  it("resends a confirmation email to a pending subscriber", async () => {
    await withPage({}, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await page.goto(`${adminSite.base}/admin/newsletter?status=pending`);
      await page.getByRole("button", { name: "Resend confirmation to bob@example.test" }).click();
      await toast(page, "A new confirmation email has been sent.").waitFor();
      expect(await textOf(toast(page, "A new confirmation email has been sent."))).toContain("Confirmation email sent");
    });
  });

  it("removes an address from the suppression list, and adds one by hand", async () => {
    await withPage({}, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await page.goto(`${adminSite.base}/admin/newsletter?tab=suppressions`);
      const row = page.getByTestId("suppression-spam@example.test");
      await row.getByLabel("Remove spam@example.test from the suppression list").click();
      await row.getByRole("button", { name: "Remove", exact: true }).click();
      await toast(page, "The email has been removed from the suppression list.").waitFor();
      await row.waitFor({ state: "detached" });

      const form = page.getByTestId("add-suppression-form");
      await form.getByLabel("Email").fill("Blocked@Example.TEST");
      await form.getByLabel("Reason (optional)").fill("Asked by phone");
      await form.getByRole("button", { name: "Add" }).click();
      await page.getByTestId("suppression-blocked@example.test").waitFor();
      expect(await textOf(page.getByTestId("suppression-blocked@example.test"))).toContain("Asked by phone");
      await toast(page, "blocked@example.test will not receive any email.").waitFor();
      await settled(page);
      await expectNoAxeViolations(page);
    });
  });

  it("retries a failed email from the log", async () => {
    await withPage({}, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await page.goto(`${adminSite.base}/admin/newsletter?tab=emails`);
      await page.getByRole("button", { name: "Retry the email to failed@example.test" }).click();
      await toast(page, "The email will be sent again.").waitFor();
      // Queued again with a fresh count: the worker takes it at once (kept unsent here, without SMTP).
      const row = page.getByTestId("email-email-failed");
      await expect
        .poll(async () => {
          await page.reload();
          return textOf(row);
        })
        .not.toContain("421 Try again later");
      expect(await textOf(row)).not.toContain("Failed");
    });
  });

  it("refuses an invalid form with a 400 and a message, never a 500", async () => {
    const post = (fields: Record<string, string>) =>
      fetch(`${adminSite.base}/admin/newsletter?tab=suppressions`, {
        method: "POST",
        headers: {
          Cookie: adminSite.sessions.admin,
          Origin: adminSite.base,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      });
    const bad = await post({ intent: "add-suppression", email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid email address");
    expect((await post({ intent: "nonsense" })).status).toBe(400);
    expect((await post({ intent: "delete-subscriber" })).status).toBe(400);
  });

  it("exports the subscribers as CSV", async () => {
    const response = await fetch(`${adminSite.base}/api/admin/newsletter/export.csv`, {
      headers: { Cookie: adminSite.sessions.admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="newsletter-subscribers-/);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe("email,status,subscribed_at,confirmed_at,unsubscribed_at");
    expect(lines).toContain("ada.reader@example.test,active,2026-01-05T10:00:00.000Z,2026-01-05T10:05:00.000Z,");
  });
});
