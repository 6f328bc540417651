import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { checkState, choose, chooseTheme, expectKeyboardDialog, LOOKS, toast } from "./helpers/admin-screens.ts";
import { textOf, withPage } from "./helpers/browser.ts";
import { waitForHydration } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/users in a real browser: invitations (a field message from the browser and
 * one from the server), role changes in a dialog (the last administrator kept),
 * deletion and revocation behind confirmations, an editor's Access Denied; every state
 * in the light theme at 1280 px and the dark theme at 390 px, with axe.
 */

const ACCOUNTS = {
  admin: { email: "ada@example.com", name: "Ada Lovelace", role: "admin" as const },
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
  light: { email: "lee.light@example.com", name: "Lee Light", role: "editor" as const },
  dark: { email: "dana.dark@example.com", name: "Dana Dark", role: "editor" as const },
};

const adminSite = setUpSignedInSite({ accounts: ACCOUNTS, subnet: "10.0.7" });

describe.each(LOOKS)("an admin in the $theme theme", ({ theme, viewport }) => {
  const member = ACCOUNTS[theme];
  const invitee = `ivy.${theme}@example.com`;

  it("invites, changes a role, deletes a user and revokes an invitation", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await chooseTheme(testPage, adminSite.base, theme);
      const response = await page.goto(`${adminSite.base}/admin/users`);
      expect(response?.status()).toBe(200);
      await waitForHydration(page);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Users");
      const memberRow = page.getByTestId(`user-${member.email}`);
      expect(await textOf(memberRow)).toContain("Editor");
      expect(await textOf(page.getByTestId(`user-${ACCOUNTS.admin.email}`))).toContain("(you)");
      expect(await page.getByTestId(`user-${ACCOUNTS.admin.email}`).getByTestId("delete-user").count()).toBe(0);
      await checkState(page, theme, "the users page");

      // The browser checks the address as it is typed; the server, whether it is taken.
      const inviteForm = page.getByTestId("invite-form");
      const email = inviteForm.getByLabel("Email");
      await email.fill("not an email");
      await inviteForm.getByRole("button", { name: "Send invitation" }).click();
      await inviteForm.getByText("Please enter a valid email address.").waitFor();
      expect(await email.getAttribute("aria-invalid")).toBe("true");
      await checkState(page, theme, "the invite form refused by the browser");
      await email.fill(ACCOUNTS.editor.email);
      await inviteForm.getByRole("button", { name: "Send invitation" }).click();
      await inviteForm
        .getByTestId("field-error")
        .getByText("An account with this email address already exists.")
        .waitFor();
      await toast(page, "Failed to send invitation").waitFor();

      await email.fill(invitee);
      await choose(page, inviteForm.getByRole("combobox", { name: "Role" }), "Administrator");
      await inviteForm.getByRole("button", { name: "Send invitation" }).click();
      await toast(page, `No SMTP is configured, so no email went to ${invitee}`).waitFor();
      const invitation = page.getByTestId(`invitation-${invitee}`);
      await invitation.waitFor();
      expect(await textOf(invitation)).toContain("Administrator");
      expect(await textOf(page.getByTestId("invitation-link"))).toMatch(/\/auth\/invite\?token=[\w-]+/);
      // The form starts again empty, with the default role.
      await expect.poll(() => email.inputValue()).toBe("");
      await checkState(page, theme, "after an invitation");

      // The role dialog from the keyboard; then the last administrator stays one.
      const adminRow = page.getByTestId(`user-${ACCOUNTS.admin.email}`);
      await expectKeyboardDialog(page, adminRow.getByTestId("change-role"));
      await adminRow.getByTestId("change-role").click();
      const dialog = page.getByRole("dialog", { name: "Change the role of Ada Lovelace" });
      await choose(page, dialog.getByRole("combobox", { name: "Role" }), "Editor");
      await dialog.getByRole("button", { name: "Save role" }).click();
      await dialog
        .getByTestId("form-errors")
        .getByText("This is the only administrator: make another user an administrator first.")
        .waitFor();
      await checkState(page, theme, "the role dialog refusing to demote the last administrator");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(await textOf(adminRow)).toContain("Administrator");

      await memberRow.getByTestId("change-role").click();
      const memberDialog = page.getByRole("dialog", { name: `Change the role of ${member.name}` });
      await choose(page, memberDialog.getByRole("combobox", { name: "Role" }), "Administrator");
      await memberDialog.getByRole("button", { name: "Save role" }).click();
      await toast(page, `${member.name} is now an administrator.`).waitFor();
      await memberDialog.waitFor({ state: "hidden" });
      await expect.poll(() => textOf(memberRow.getByRole("cell").nth(2))).toContain("Administrator");

      // Deleting asks first, saying it cannot be undone.
      await memberRow.getByTestId("delete-user").click();
      const confirm = page.getByRole("alertdialog", { name: `Delete ${member.name}?` });
      expect(await textOf(confirm)).toContain("This action cannot be undone.");
      await checkState(page, theme, "the delete confirmation");
      await confirm.getByRole("button", { name: "Delete permanently" }).click();
      await toast(page, `The account of ${member.name} has been deleted.`).waitFor();
      await memberRow.waitFor({ state: "detached" });

      await invitation.getByRole("button", { name: `Revoke the invitation to ${invitee}` }).click();
      const revoke = page.getByRole("alertdialog", { name: "Revoke this invitation?" });
      await revoke.getByRole("button", { name: "Revoke invitation" }).click();
      await toast(page, `The invitation to ${invitee} no longer works.`).waitFor();
      await page.getByTestId("invitations-empty").getByText("No pending invitations.").waitFor();
      await checkState(page, theme, "after deleting a user and revoking an invitation");
    });
  });
});

describe("the users action", () => {
  const post = (who: "admin" | "editor", fields: Record<string, string>) =>
    adminSite.postForm("/admin/users", fields, who);

  it("checks every form again: a bad address or role is a 400 with the field's message", async () => {
    const badEmail = await post("admin", { intent: "invite", email: "nope", role: "editor" });
    expect(badEmail.status).toBe(400);
    expect(await badEmail.text()).toContain("Please enter a valid email address.");
    const badRole = await post("admin", { intent: "invite", email: "x@example.com", role: "owner" });
    expect(badRole.status).toBe(400);
    expect(await badRole.text()).toContain("Choose a role.");
    expect((await post("admin", { intent: "delete-user", userId: "nobody" })).status).toBe(404);
  });

  it("lists every account, past the 100 rows Better Auth's adapter returns by default", async () => {
    const ids = Array.from({ length: 101 }, (_, index) => `many-${String(index).padStart(3, "0")}`);
    const emailOf = (id: string) => `${id}@example.com`;
    await adminSite.database(async (db) => {
      // Written directly: a hundred accounts made through the password hasher take many seconds.
      for (const [index, id] of ids.entries()) {
        const at = new Date(Date.UTC(2030, 0, 1) + index * 1000).toISOString();
        await sql`insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
          values (${id}, ${id}, ${emailOf(id)}, false, ${at}, ${at})`.execute(db);
      }
      await db
        .insertInto("user_roles")
        .values(ids.map((id) => ({ user_id: id, role: "editor" as const })))
        .execute();
    });
    try {
      const page = await fetch(`${adminSite.base}/admin/users`, { headers: { Cookie: adminSite.sessions.admin } });
      expect(page.status).toBe(200);
      const html = await page.text();
      // The newest account, the last of the list, was the one left out.
      for (const id of [ids[0], ids.at(-1)]) expect(html).toContain(`data-testid="user-${emailOf(id as string)}"`);
    } finally {
      await adminSite.database((db) => sql`delete from "user" where id in (${sql.join(ids)})`.execute(db));
    }
  });

  it("is for admins only", async () => {
    const refused = await post("editor", { intent: "delete-user", userId: "x" });
    expect(refused.status).toBe(403);
    await withPage({}, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "editor");
      const response = await page.goto(`${adminSite.base}/admin/users`);
      expect(response?.status()).toBe(403);
      expect(await textOf(page.getByTestId("access-denied-reason"))).toBe("Admin privileges are required.");
    });
  });
});

describe("an admin who makes themselves an editor", () => {
  const setRole = (who: keyof typeof ACCOUNTS, role: "admin" | "editor") =>
    adminSite.database((db) =>
      db
        .updateTable("user_roles")
        .set({ role })
        .where("user_id", "=", adminSite.site.users.get(ACCOUNTS[who].email)?.id ?? "")
        .execute(),
    );

  it("lands on the dashboard, told that the role was updated", async () => {
    // Another administrator first: the last one cannot step down.
    await setRole("editor", "admin");
    try {
      await withPage({}, async (testPage) => {
        const page = await adminSite.signedIn(testPage, "admin");
        await page.goto(`${adminSite.base}/admin/users`);
        await waitForHydration(page);
        await page.getByTestId(`user-${ACCOUNTS.admin.email}`).getByTestId("change-role").click();
        const dialog = page.getByRole("dialog", { name: "Change the role of Ada Lovelace" });
        await choose(page, dialog.getByRole("combobox", { name: "Role" }), "Editor");
        await dialog.getByRole("button", { name: "Save role" }).click();
        await page.waitForURL(`${adminSite.base}/admin`);
        await toast(page, "You are now an editor.").waitFor();
        expect(await textOf(toast(page, "You are now an editor."))).toContain("Role updated");
      });
    } finally {
      await setRole("admin", "admin");
      await setRole("editor", "editor");
    }
  });
});
