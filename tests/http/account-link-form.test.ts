import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken, INVALID_LINK_MESSAGE } from "../../server/auth/invitations.ts";
import { type SiteWithAccounts, startSiteWithAccounts, TEST_PASSWORD } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * The owner set-up and invitation forms (/auth/setup, /auth/invite) posted as a browser
 * posts them, on the built server: values too long for an account are the sender's
 * mistake, answered 400 beside their field (or as a link that does not work), never a
 * server error, and the link keeps working.
 */

const INVITATION_TOKEN = "an-invitation-token-of-forty-three-characters".slice(0, 43);

function post(server: { url: string }, path: string, fields: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams({ password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD, ...fields }).toString(),
  });
}

const errorLines = (server: RunningServer) => server.logs().filter((line) => Number(line.level) >= 50);

describe.each(TEST_DIALECTS)("account-link forms on %s", (dialect) => {
  describe("the owner set-up", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ dialect });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("answers an over-long email beside its field, and the link still works", async () => {
      // No administrator exists: the server logs its one-time set-up link.
      const setup = new URL((await server.waitForLog((line) => typeof line.setupUrl === "string")).setupUrl as string);
      const path = `${setup.pathname}${setup.search}`;
      const token = setup.searchParams.get("token") ?? "";
      const answer = await post(server, path, {
        token,
        name: "Olive Owner",
        email: `${"e".repeat(1000)}@example.test`,
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("The email address must be at most 254 characters long.");
      expect(errorLines(server)).toEqual([]);

      const created = await post(server, path, { token, name: "Olive Owner", email: "olive@example.test" });
      expect(created.status).toBeLessThan(400);
    });
  });

  describe("an invitation", () => {
    let site: SiteWithAccounts;
    beforeAll(async () => {
      site = await startSiteWithAccounts({
        dialect,
        accounts: [{ email: "olive@example.test", name: "Olive", role: "admin" }],
      });
      const database = await site.openDatabase();
      try {
        const now = Date.now();
        await database.db
          .insertInto("account_invitations")
          .values({
            id: "invitation-long-fields",
            kind: "invitation",
            email: "newcomer@example.test",
            role: "editor",
            token_hash: hashToken(INVITATION_TOKEN),
            invited_by: site.users.get("olive@example.test")?.id as string,
            created_at: new Date(now).toISOString(),
            expires_at: new Date(now + 24 * 60 * 60 * 1000).toISOString(),
            accepted_at: null,
          })
          .execute();
      } finally {
        await database.close();
      }
    });
    afterAll(async () => {
      await site?.stop();
    });

    it("answers an over-long name with the longest it may be, and the link still works", async () => {
      const path = `/auth/invite?token=${INVITATION_TOKEN}`;
      const answer = await post(site.server, path, { token: INVITATION_TOKEN, name: "n".repeat(1001) });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("The name must be at most 100 characters long.");
      expect(errorLines(site.server)).toEqual([]);

      const created = await post(site.server, path, { token: INVITATION_TOKEN, name: "Nina Newcomer" });
      expect(created.status).toBeLessThan(400);
    });

    it("answers a forged over-long token as any link that does not work", async () => {
      const token = "t".repeat(2000);
      const answer = await post(site.server, `/auth/invite?token=${token}`, { token, name: "Mallory" });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain(INVALID_LINK_MESSAGE);
      expect(errorLines(site.server)).toEqual([]);
    });
  });
});
