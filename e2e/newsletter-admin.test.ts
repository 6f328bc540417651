import type { Insertable } from "kysely";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { deriveActivePeriods } from "../server/db/migrations/0008-newsletter-active-periods.ts";
import type { EmailOutboxTable, NewsletterSubscribersTable } from "../server/db/schema.ts";
import type { SubscriberStatus } from "../server/newsletter/admin.ts";
import {
  checkState,
  choose,
  chooseTheme,
  expectKeyboardDialog,
  LOOKS,
  type Theme,
  toast,
} from "./helpers/admin-screens.ts";
import { expectNoAxeViolations, type TestPage, textOf, withPage } from "./helpers/browser.ts";
import { visit, waitForHydration } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/newsletter in a real browser: the counters, the three tabs kept in `?tab=`
 * (links and reloads keep them, pages are per tab), search and filter, delete and
 * suppression removal behind confirmations with the spec's toasts (success and
 * failure), resend confirmation, adding to the suppression list (a field message from
 * the browser, the same check again in the action), retry of a failed email, the CSV
 * export, the editor's Access Denied; every state in the light theme at 1280 px and
 * the dark theme at 390 px, with axe.
 */

const ACCOUNTS = {
  admin: { email: "ada@example.com", name: "Ada Lovelace", role: "admin" as const },
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
};

const recent = new Date(Date.now() - 60_000).toISOString();

/** Records each look works on, so that the two runs do not take each other's rows. */
function perLook(theme: Theme) {
  return {
    removable: `eve.${theme}@example.test`,
    vanishing: `vic.${theme}@example.test`,
    pending: `bob.${theme}@example.test`,
    suppressed: `spam.${theme}@example.test`,
    failedEmail: `email-failed-${theme}`,
    failedTo: `failed.${theme}@example.test`,
  };
}

/** A row as the product leaves it: an active subscriber confirmed when they subscribed (the chart's periods are derived from it). */
const subscriber = (email: string, status: SubscriberStatus, at = recent) =>
  ({
    id: `sub-${email}`,
    email,
    status,
    subscribed_at: at,
    confirmed_at: status === "active" ? at : null,
  }) satisfies Insertable<NewsletterSubscribersTable>;

const adminSite = setUpSignedInSite({
  accounts: ACCOUNTS,
  subnet: "10.0.5",
  seed: async ({ db }) => {
    const looks = LOOKS.map(({ theme }) => perLook(theme));
    await db
      .insertInto("newsletter_subscribers")
      .values([
        {
          ...subscriber("ada.reader@example.test", "active", "2026-01-05T10:00:00.000Z"),
          confirmed_at: "2026-01-05T10:05:00.000Z",
        },
        subscriber("cy@example.test", "unsubscribed", "2025-12-01T00:00:00.000Z"),
        subscriber("dee@example.test", "bounced", "2025-11-11T00:00:00.000Z"),
        ...looks.flatMap((look) => [
          subscriber(look.removable, "active"),
          subscriber(look.vanishing, "active"),
          subscriber(look.pending, "pending"),
        ]),
        // Old enough to be on the second page of the newest-first list.
        ...Array.from({ length: 50 }, (_, index) =>
          subscriber(`reader${String(index).padStart(2, "0")}@example.test`, "active", "2025-06-01T00:00:00.000Z"),
        ),
      ])
      .execute();
    await db
      .insertInto("newsletter_suppressions")
      .values([
        {
          id: "sup-dee",
          email: "dee@example.test",
          reason: "Hard bounce: 550 no such user",
          added_at: "2026-02-03T00:00:00.000Z",
        },
        ...looks.map((look) => ({
          id: `sup-${look.suppressed}`,
          email: look.suppressed,
          reason: "Complaint",
          added_at: "2026-02-04T00:00:00.000Z",
        })),
      ])
      .execute();
    await deriveActivePeriods(db);
    await db
      .insertInto("email_outbox")
      .values(
        looks.map(
          (look) =>
            ({
              id: look.failedEmail,
              idempotency_key: `test:${look.failedEmail}`,
              kind: "newsletter-confirmation",
              to_address: look.failedTo,
              subject: "Confirm",
              html_body: "<p>Confirm</p>",
              text_body: "Confirm",
              status: "failed",
              attempts: 5,
              last_error: "421 Try again later",
            }) satisfies Insertable<EmailOutboxTable>,
        ),
      )
      .execute();
  },
});

/** The admin's newsletter page in a look, hydrated. */
async function openNewsletter(testPage: TestPage, theme: Theme, query = ""): Promise<Page> {
  const page = await adminSite.signedIn(testPage, "admin");
  await chooseTheme(testPage, adminSite.base, theme);
  expect((await visit(page, `${adminSite.base}/admin/newsletter${query}`))?.status()).toBe(200);
  return page;
}

const tab = (page: Page, name: string) => page.getByRole("tab", { name });

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

describe.each(LOOKS)("an admin in the $theme theme", ({ theme, viewport }) => {
  const look = perLook(theme);

  it("sees the counters, searches, filters, pages, and keeps the tab in the URL", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await openNewsletter(testPage, theme);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Newsletter");
      const value = (key: string) => textOf(page.getByTestId(`stat-${key}-value`));
      expect(Number(await value("total"))).toBeGreaterThanOrEqual(55);
      expect(Number(await value("pending"))).toBeGreaterThanOrEqual(1);
      expect(await textOf(page.getByTestId("stat-new-this-month"))).toMatch(/^\+\d+ new this month$/);
      const summary = await textOf(page.getByTestId("active-subscribers-summary"));
      expect(summary).toMatch(/^Active subscribers over the last 30 days: \d+ on \w+ \d+, \d+ on \w+ \d+\.$/);
      // Today's bar counts who is active now.
      expect(/(\d+) on \w+ \d+\.$/.exec(summary)?.[1]).toBe(await value("active"));
      expect(await tab(page, "Subscribers").getAttribute("aria-selected")).toBe("true");
      // The tabs fit the window: a tab list that scrolls cuts off the focused tab's outline.
      expect(await page.getByRole("tablist").evaluate((list) => list.scrollWidth - list.clientWidth)).toBe(0);
      const table = page.getByTestId("subscribers-table");
      expect(await textOf(table.getByTestId(`subscriber-${look.pending}`))).toContain("Pending");
      // Resend only for pending subscribers.
      expect(await table.getByRole("button", { name: `Resend confirmation to ${look.pending}` }).count()).toBe(1);
      expect(await table.getByRole("button", { name: `Resend confirmation to ${look.removable}` }).count()).toBe(0);
      await checkState(page, theme, "the subscribers tab");

      // 50 a page: the oldest readers are on page 2.
      expect(await textOf(page.getByTestId("pagination-summary"))).toMatch(/^Page 1 of 2 · \d+ subscribers$/);
      await page.getByRole("link", { name: "Next" }).click();
      await page.waitForURL(/page=2/);
      await page.getByTestId("subscriber-reader00@example.test").waitFor();
      await checkState(page, theme, "the second page of subscribers");

      const search = page.getByRole("search");
      await search.getByLabel("Search by email").fill("ADA.READER");
      await search.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/q=ADA.READER/);
      await page.getByTestId("subscriber-reader00@example.test").waitFor({ state: "detached" });
      expect(await page.getByTestId("subscribers-table").locator("tbody tr").count()).toBe(1);
      expect(await textOf(page.getByTestId("subscriber-ada.reader@example.test"))).toContain("Jan 5, 2026");

      await search.getByLabel("Search by email").fill("");
      await choose(page, search.getByRole("combobox", { name: "Status" }), "Bounced");
      await search.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/status=bounced/);
      await page.getByTestId("subscriber-ada.reader@example.test").waitFor({ state: "detached" });
      expect(await textOf(page.getByTestId("subscribers-table"))).toContain("dee@example.test");
      expect(await page.getByTestId("subscribers-table").locator("tbody tr").count()).toBe(1);

      // Tabs change the URL; a reload keeps the tab.
      await tab(page, "Suppression List").click();
      await page.waitForURL((url) => url.searchParams.get("tab") === "suppressions" && !url.searchParams.has("status"));
      await page.getByTestId("suppressions-table").waitFor();
      expect(await textOf(page.getByTestId("suppression-dee@example.test"))).toContain("Hard bounce: 550 no such user");
      expect(await textOf(page.getByTestId("suppression-dee@example.test"))).toContain("Feb 3, 2026");
      await page.reload();
      await waitForHydration(page);
      expect(await tab(page, "Suppression List").getAttribute("aria-selected")).toBe("true");
      await checkState(page, theme, "the suppression list tab");

      // From the keyboard: arrows move between tabs, Enter opens one.
      await tab(page, "Suppression List").focus();
      await page.keyboard.press("ArrowRight");
      // Radix moves the focus a moment after the key (a timeout), and Enter goes where the focus is.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Email log");
      await page.keyboard.press("Enter");
      await page.getByTestId(`email-${look.failedEmail}`).waitFor();
      expect(new URL(page.url()).searchParams.get("tab")).toBe("emails");
      expect(await textOf(page.getByTestId(`email-${look.failedEmail}`))).toContain(look.failedTo);
      await checkState(page, theme, "the email log tab");
    });
  });

  it("deletes a subscriber after the confirmation, and says when it is already gone", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await openNewsletter(testPage, theme, `?q=${theme}`);
      const row = page.getByTestId(`subscriber-${look.removable}`);
      const trigger = row.getByRole("button", { name: `Delete ${look.removable}` });
      await expectKeyboardDialog(page, trigger, "alertdialog");

      await trigger.click();
      const confirm = page.getByRole("alertdialog", { name: "Delete this subscriber?" });
      expect(await textOf(confirm)).toContain("This action cannot be undone.");
      await checkState(page, theme, "the delete confirmation");
      await confirm.getByRole("button", { name: "Delete permanently" }).click();
      const deleted = toast(page, "The subscriber has been removed successfully.");
      await deleted.waitFor();
      expect(await textOf(deleted)).toContain("Subscriber deleted");
      await row.waitFor({ state: "detached" });
      await checkState(page, theme, "after deleting a subscriber");

      // Gone meanwhile (another tab, another admin): the spec's failure toast, with why.
      const vanishing = page.getByTestId(`subscriber-${look.vanishing}`);
      await vanishing.getByRole("button", { name: `Delete ${look.vanishing}` }).click();
      await adminSite.database((db) =>
        db.deleteFrom("newsletter_subscribers").where("email", "=", look.vanishing).execute(),
      );
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete permanently" }).click();
      const failed = toast(page, "Failed to delete subscriber.");
      await failed.waitFor();
      expect(await textOf(failed)).toContain("Error");
      expect(await textOf(failed)).toContain("This subscriber no longer exists.");
      await checkState(page, theme, "the failure toast");
    });
  });

  it("resends a confirmation email to a pending subscriber", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await openNewsletter(testPage, theme, "?status=pending");
      await page.getByRole("button", { name: `Resend confirmation to ${look.pending}` }).click();
      // No SMTP in these tests: the email is kept in the outbox, and the toast says so.
      const kept = toast(
        page,
        "No SMTP is configured, so no email was sent: its confirmation link is in the server's log.",
      );
      await kept.waitFor();
      expect(await textOf(kept)).toContain("Confirmation email kept in the outbox");
    });
  });

  it("removes an address from the suppression list, and adds one by hand", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await openNewsletter(testPage, theme, "?tab=suppressions");
      const row = page.getByTestId(`suppression-${look.suppressed}`);
      await row.getByRole("button", { name: `Remove ${look.suppressed} from the suppression list` }).click();
      const confirm = page.getByRole("alertdialog", { name: "Remove from the suppression list?" });
      expect(await textOf(confirm)).toContain("This action cannot be undone.");
      await confirm.getByRole("button", { name: "Remove", exact: true }).click();
      const removed = toast(page, "The email has been removed from the suppression list.");
      await removed.waitFor();
      expect(await textOf(removed)).toContain("Removed from suppression list");
      await row.waitFor({ state: "detached" });

      const form = page.getByTestId("add-suppression-form");
      await form.getByLabel("Email").fill("not an email");
      await form.getByRole("button", { name: "Add" }).click();
      await form.getByTestId("field-error").getByText("Please enter a valid email address").waitFor();
      expect(await form.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
      await checkState(page, theme, "the add form with a field message");

      const address = `Blocked.${theme}@Example.TEST`;
      await form.getByLabel("Email").fill(address);
      await form.getByLabel("Reason (optional)").fill("Asked by phone");
      await form.getByRole("button", { name: "Add" }).click();
      const added = page.getByTestId(`suppression-${address.toLowerCase()}`);
      await added.waitFor();
      expect(await textOf(added)).toContain("Asked by phone");
      await toast(page, `${address.toLowerCase()} will not receive any email.`).waitFor();
      await expect.poll(() => form.getByLabel("Email").inputValue()).toBe("");
      await checkState(page, theme, "after adding an address");
    });
  });

  it("retries a failed email from the log", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await openNewsletter(testPage, theme, "?tab=emails");
      await page.getByRole("button", { name: `Retry the email to ${look.failedTo}` }).click();
      const queued = toast(page, "No SMTP is configured, so it is not sent again: its links are in the server's log.");
      await queued.waitFor();
      expect(await textOf(queued)).toContain("Email kept in the outbox");
      // Queued again with a fresh count: the page's data is reloaded after the action.
      const row = page.getByTestId(`email-${look.failedEmail}`);
      await expect.poll(() => textOf(row)).not.toContain("421 Try again later");
      expect(await textOf(row)).not.toContain("Failed");
    });
  });
});

describe("the newsletter action", () => {
  const post = (fields: Record<string, string>) => adminSite.postForm("/admin/newsletter", fields, "admin");

  it("checks every form again: a 400 with the field's message, never a 500", async () => {
    const bad = await post({ intent: "add-suppression", email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid email address");
    expect((await post({ intent: "nonsense" })).status).toBe(400);
    expect((await post({ intent: "delete-subscriber" })).status).toBe(400);
    expect((await post({ intent: "delete-subscriber", id: "sub-nobody" })).status).toBe(404);
    expect((await post({ intent: "retry-email", id: "email-nobody" })).status).toBe(409);
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
