import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { checkState, chooseTheme, expectStaleSaveRefused, LOOKS, type Theme, toast } from "./helpers/admin-screens.ts";
import { expectNoAxeViolations, type TestPage, textOf, withPage } from "./helpers/browser.ts";
import { visit, waitForHydration } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * The Newsletter Settings tab of /admin/home (?tab=newsletter) in a real browser: the counters, saving
 * the settings (checked in the database) with the switch used from the keyboard, the
 * field messages of both forms, the test email (its outbox row), the editor's
 * read-only view (and refused posts), the test email API, the progress per
 * notification in the email log; every state in both looks, with axe.
 */

const ACCOUNTS = {
  admin: { email: "ada@example.com", name: "Ada Lovelace", role: "admin" as const },
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
};

const recent = new Date(Date.now() - 60_000).toISOString();

const adminSite = setUpSignedInSite({
  accounts: ACCOUNTS,
  subnet: "10.0.6",
  seed: async ({ db }) => {
    await db
      .insertInto("newsletter_subscribers")
      .values([
        { id: "sub-a", email: "a@example.test", status: "active", subscribed_at: recent },
        { id: "sub-b", email: "b@example.test", status: "pending", subscribed_at: recent },
        { id: "sub-c", email: "c@example.test", status: "active", subscribed_at: "2025-01-01T00:00:00.000Z" },
      ])
      .execute();
    await db
      .insertInto("notifications")
      .values({
        id: "notification-1",
        item_type: "tip",
        item_id: "tip-1",
        title: "Harden <SSH>",
        url: "/blog",
        status: "sent",
        scheduled_for: "2026-01-02T10:02:00.000Z",
        sent_at: "2026-01-02T10:02:05.000Z",
      })
      .execute();
    await db
      .insertInto("email_outbox")
      .values(
        (["sent", "sent", "failed"] as const).map((status, index) => ({
          id: `email-n-${index}`,
          idempotency_key: `notify:notification-1:sub-${index}`,
          kind: "notification",
          batch_id: "notification-1",
          to_address: `n${index}@example.test`,
          subject: "New tip: Harden <SSH>",
          html_body: "<p>x</p>",
          text_body: "x",
          status,
        })),
      )
      .execute();
  },
});

const settings = () =>
  adminSite.database(async (db) => {
    const rows = await db.selectFrom("newsletter_settings").select(["setting_key", "setting_value"]).execute();
    return Object.fromEntries(rows.map((row) => [row.setting_key, row.setting_value]));
  });

const testEmails = () =>
  adminSite.database((db) =>
    db
      .selectFrom("email_outbox")
      .select(["to_address", "subject", "html_body", "text_body", "kind"])
      .where("kind", "=", "newsletter-test")
      .orderBy("created_at")
      .execute(),
  );

/** The home page screen on its Newsletter Settings tab. */
async function openHome(testPage: TestPage, theme: Theme, who: keyof typeof ACCOUNTS = "admin"): Promise<Page> {
  const page = await adminSite.signedIn(testPage, who);
  await chooseTheme(testPage, adminSite.base, theme);
  expect((await visit(page, `${adminSite.base}/admin/home?tab=newsletter`))?.status()).toBe(200);
  return page;
}

describe.each(LOOKS)("an admin in the $theme theme", ({ theme, viewport }) => {
  it("sees the counters and saves the newsletter settings", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await openHome(testPage, theme);
      expect(await textOf(page.getByTestId("stat-total-value"))).toBe("3");
      expect(await textOf(page.getByTestId("stat-active-value"))).toBe("2");
      expect(await textOf(page.getByTestId("stat-pending-value"))).toBe("1");
      expect(await textOf(page.getByTestId("stat-newThisWeek-value"))).toBe("2");
      await checkState(page, theme, "the newsletter settings");

      const form = page.getByTestId("newsletter-settings-form");
      // The switch from the keyboard: Space turns it over.
      const toggle = form.getByRole("switch", { name: "Automatic post notifications" });
      const wasOn = (await toggle.getAttribute("aria-checked")) === "true";
      await toggle.focus();
      await page.keyboard.press("Space");
      expect(await toggle.getAttribute("aria-checked")).toBe(String(!wasOn));

      const subject = form.getByLabel("Welcome email subject");
      await subject.fill("   ");
      await form.getByRole("button", { name: "Save Newsletter Settings" }).click();
      await form.getByTestId("field-error").getByText("The welcome email subject is required").waitFor();
      expect(await subject.getAttribute("aria-invalid")).toBe("true");
      await checkState(page, theme, "the settings form with a field message");

      await subject.fill(`Welcome aboard (${theme})`);
      await form.getByLabel("Welcome email message").fill(`Hello <friend> & welcome (${theme}).`);
      await form.getByRole("button", { name: "Save Newsletter Settings" }).click();
      await toast(page, "Setting updated successfully!").waitFor();
      expect(await settings()).toMatchObject({
        auto_send_enabled: wasOn ? "false" : "true",
        welcome_email_subject: `Welcome aboard (${theme})`,
        welcome_email_body: `Hello <friend> & welcome (${theme}).`,
      });
      await checkState(page, theme, "after saving the settings");

      await page.reload();
      await waitForHydration(page);
      expect(
        await page.getByRole("switch", { name: "Automatic post notifications" }).getAttribute("aria-checked"),
      ).toBe(String(!wasOn));
      expect(await page.getByLabel("Welcome email subject").inputValue()).toBe(`Welcome aboard (${theme})`);
    });
  });

  it("asks for a recipient, then sends a test email", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await openHome(testPage, theme);
      const form = page.getByTestId("test-email-form");
      await form.getByRole("button", { name: "Send Test Email" }).click();
      await form.getByTestId("field-error").getByText("Please enter a test email address").waitFor();
      expect(await form.getByLabel("Recipient email").getAttribute("aria-invalid")).toBe("true");
      await checkState(page, theme, "the test email form with a field message");

      const before = (await testEmails()).length;
      await form.getByLabel("Recipient email").fill(`Me.${theme}@Example.test`);
      await form.getByLabel("Sample post title").fill("Hardening <SSH>");
      await form.getByLabel("Sample post summary").fill("Keys & ciphers");
      await form.getByLabel("Sample post URL").fill("https://example.test/blog/ssh");
      await form.getByRole("button", { name: "Send Test Email" }).click();
      const kept = toast(page, "Test email kept in the outbox: no SMTP is configured.");
      await kept.waitFor();
      const emails = await testEmails();
      expect(emails).toHaveLength(before + 1);
      const email = emails.at(-1);
      expect(email?.to_address).toBe(`me.${theme}@example.test`);
      expect(email?.subject).toBe("[TEST] New Blog Post: Hardening <SSH>");
      expect(email?.html_body).toContain("Hardening &lt;SSH&gt;");
      expect(email?.html_body).toContain("Keys &amp; ciphers");
      expect(email?.text_body).toContain("Read it now:\nhttps://example.test/blog/ssh");
      // The form starts again empty after a success (Conform resets it in an effect that can
      // run a frame after the toast's).
      await expect.poll(() => form.getByLabel("Recipient email").inputValue()).toBe("");
      await checkState(page, theme, "after sending a test email");
      // The toast may cover the form's button on a small screen: it goes before the next
      // send, once the pointer (left over it by the click) no longer holds it open.
      await page.mouse.move(0, 0);
      await kept.waitFor({ state: "hidden" });

      // The server's own refusal, beside the field it names: a suppressed recipient.
      await adminSite.database((db) =>
        db
          .insertInto("newsletter_suppressions")
          .values({ id: `sup-${theme}`, email: `blocked.${theme}@example.test`, reason: "Complaint" })
          .execute(),
      );
      await form.getByLabel("Recipient email").fill(`blocked.${theme}@example.test`);
      await form.getByRole("button", { name: "Send Test Email" }).click();
      await form.getByTestId("field-error").getByText("This address is on the suppression list").waitFor();
      await toast(page, "Failed to send test email: This address is on the suppression list").waitFor();
    });
  });
});

describe("the email log", () => {
  it("shows the progress of each notification", async () => {
    await withPage({}, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await page.goto(`${adminSite.base}/admin/newsletter?tab=emails`);
      const row = page.getByTestId("notification-notification-1");
      // innerText: the column names a phone shows in each cell are hidden on a desktop.
      expect(await row.locator("td").allInnerTexts()).toEqual([
        "Harden <SSH>",
        "Tip",
        "Sent",
        "Jan 2, 2026, 10:02 UTC",
        "Jan 2, 2026, 10:02 UTC",
        "0",
        "2",
        "1",
      ]);
      await expectNoAxeViolations(page);
    });
  });
});

describe("two admins", () => {
  it("refuses a save over the other's change with 409, keeping what was typed", async () => {
    await withPage({}, async (testPage) => {
      const page = await openHome(testPage, "light");
      // Another admin changes the subject after this page was loaded.
      await adminSite.database((db) =>
        db
          .updateTable("newsletter_settings")
          .set((eb) => ({ setting_value: "Changed elsewhere", revision: eb("revision", "+", 1) }))
          .where("setting_key", "=", "welcome_email_subject")
          .execute(),
      );
      const form = page.getByTestId("newsletter-settings-form");
      await expectStaleSaveRefused(page, {
        form,
        field: form.getByLabel("Welcome email message"),
        typed: "My own welcome.",
        save: form.getByRole("button", { name: "Save Newsletter Settings" }),
        message: "These settings were changed by someone else since you opened them. Reload to see the latest version.",
        failure: "Failed to update setting",
      });
      expect(await settings()).toMatchObject({ welcome_email_subject: "Changed elsewhere" });
      expect((await settings()).welcome_email_body).not.toBe("My own welcome.");
    });
  });
});

describe("an editor", () => {
  it("sees the settings read-only and cannot save them", async () => {
    await withPage({}, async (testPage) => {
      const page = await openHome(testPage, "light", "editor");
      expect(await textOf(page.getByTestId("settings-read-only"))).toBe(
        "Only administrators can change the newsletter settings.",
      );
      expect(await page.getByRole("button", { name: "Save Newsletter Settings" }).count()).toBe(0);
      expect(await page.getByTestId("test-email-form").count()).toBe(0);
      expect(await page.getByLabel("Welcome email subject").isDisabled()).toBe(true);
      expect(await page.getByRole("switch", { name: "Automatic post notifications" }).isDisabled()).toBe(true);
      await checkState(page, "light", "the editor's read-only settings");
    });
    const before = await settings();
    const post = (fields: Record<string, string>) => adminSite.postForm("/admin/home", fields, "editor");
    const save = await post({
      intent: "save-settings",
      "auto_send_enabled.revision": "1",
      "auto_send_enabled.value": "on",
      "welcome_email_subject.revision": "1",
      "welcome_email_subject.value": "Hijacked",
      "welcome_email_body.revision": "1",
      "welcome_email_body.value": "Hijacked",
    });
    expect(save.status).toBe(403);
    expect(await save.text()).toContain("Only administrators can change the newsletter settings.");
    expect((await post({ intent: "send-test-email", email: "x@example.test" })).status).toBe(403);
    expect(await settings()).toEqual(before);
  });
});

describe("POST /api/newsletter/test-email", () => {
  const call = (body: unknown, cookie?: string) =>
    fetch(`${adminSite.base}/api/newsletter/test-email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: adminSite.base, ...(cookie ? { Cookie: cookie } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("is for admins only", async () => {
    expect((await call({ email: "x@example.test" })).status).toBe(401);
    expect((await call({ email: "x@example.test" }, adminSite.sessions.editor)).status).toBe(403);
  });

  it("validates the payload with a 400 and a message", async () => {
    const missing = await call({ post_title: "x" }, adminSite.sessions.admin);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ success: false, error: "Please enter a test email address" });
    expect((await call("not json", adminSite.sessions.admin)).status).toBe(400);
    expect(
      (await call({ email: "x@example.test", post_url: "javascript:alert(1)" }, adminSite.sessions.admin)).status,
    ).toBe(400);
  });

  it("queues the test email with the spec's payload", async () => {
    const response = await call(
      {
        email: "api@example.test",
        post_title: "From the API",
        post_summary: "Summary",
        post_image: "",
        post_url: "https://example.test/blog/api",
        post_type: "Tip",
      },
      adminSite.sessions.admin,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: "Test email kept in the outbox: no SMTP is configured.",
    });
    const email = (await testEmails()).find((row) => row.to_address === "api@example.test");
    expect(email?.subject).toBe("[TEST] New Tip: From the API");
  });
});
