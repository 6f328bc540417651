import { afterEach, describe, expect, it } from "vitest";
import { OWNER_SETUP_PATH } from "../../server/auth/account-endpoints.ts";
import { callAuth } from "../../server/auth/handler-calls.ts";
import { completeOwnerSetup, findUsableLink, INVALID_LINK_MESSAGE } from "../../server/auth/invitations.ts";
import { ensureOwnerAccount } from "../../server/auth/owner-setup.ts";
import { createUser, listUsers } from "../../server/auth/users.ts";
import { NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type Accounts, incomingRequest, openAccounts, STRONG_PASSWORD, signIn } from "./accounts-fixture.ts";

/**
 * The first admin: ADMIN_EMAIL / ADMIN_PASSWORD / ADMIN_NAME at start-up,
 * or else a one-time setup link in the log, replaced at each start while no admin exists.
 */

function tokenOf(url: string | undefined): string {
  return new URL(url ?? "http://x").searchParams.get("token") ?? "";
}

describe.each(TEST_DIALECTS)("the owner account on %s", (dialect) => {
  let accounts: Accounts | undefined;

  afterEach(async () => {
    await accounts?.close();
    accounts = undefined;
  });

  it("without ADMIN_*: logs a one-time setup link; each start replaces it; it creates the owner once", async () => {
    accounts = await openAccounts(dialect);
    const services = { ...accounts.services };

    const first = await ensureOwnerAccount(services);
    expect(first.setupUrl).toMatch(/^http:\/\/bastion\.test\/auth\/setup\?token=[\w-]{43}$/);
    const logged = accounts.logLines.find((line) => line.setupUrl === first.setupUrl);
    expect(logged?.msg).toContain(`Open this one-time link to create the owner account: ${first.setupUrl}`);

    const second = await ensureOwnerAccount(services);
    expect(second.setupUrl).not.toBe(first.setupUrl);
    expect(await findUsableLink(services.db, "owner-setup", tokenOf(first.setupUrl))).toBeNull();
    expect(await findUsableLink(services.db, "owner-setup", tokenOf(second.setupUrl))).not.toBeNull();

    const owner = await completeOwnerSetup(services, {
      token: tokenOf(second.setupUrl),
      name: "Olive Owner",
      email: "Olive@Example.test",
      password: STRONG_PASSWORD,
    });
    expect(owner).toMatchObject({ email: "olive@example.test", role: "admin", name: "Olive Owner" });
    expect((await signIn(accounts, "olive@example.test", STRONG_PASSWORD)).status).toBe(200);

    const reused = await completeOwnerSetup(services, {
      token: tokenOf(second.setupUrl),
      name: "Mallory",
      email: "mallory@example.test",
      password: STRONG_PASSWORD,
    }).catch((error: unknown) => error);
    expect(reused).toBeInstanceOf(NotFound);
    expect((reused as NotFound).message).toBe(INVALID_LINK_MESSAGE);

    // Now that an admin exists, a start logs no link and removes any left.
    const lines = accounts.logLines.length;
    expect(await ensureOwnerAccount(services)).toEqual({});
    expect(accounts.logLines.slice(lines).some((line) => "setupUrl" in line)).toBe(false);
    expect(await services.db.selectFrom("account_invitations").selectAll().execute()).toEqual([
      expect.objectContaining({ kind: "owner-setup", accepted_at: expect.any(String) }),
    ]);
    expect((await listUsers(services)).map((user) => user.email)).toEqual(["olive@example.test"]);
  });

  it("the setup link stops working once an admin exists by other means", async () => {
    accounts = await openAccounts(dialect);
    const services = accounts.services;
    const { setupUrl } = await ensureOwnerAccount(services);
    await createUser(services, { email: "cli@example.test", password: STRONG_PASSWORD, role: "admin", via: "cli" });
    expect(await findUsableLink(services.db, "owner-setup", tokenOf(setupUrl))).toBeNull();
    const result = await callAuth(services, incomingRequest(), OWNER_SETUP_PATH, {
      token: tokenOf(setupUrl),
      name: "Late",
      email: "late@example.test",
      password: STRONG_PASSWORD,
    });
    expect(result.status).toBe(400);
    expect(result.body.message).toBe(INVALID_LINK_MESSAGE);
    expect((await listUsers(services)).map((user) => user.email)).toEqual(["cli@example.test"]);
  });

  it("with ADMIN_*: creates the owner admin once, then leaves it alone", async () => {
    accounts = await openAccounts(dialect, {
      ADMIN_EMAIL: "Boss@Example.test",
      ADMIN_PASSWORD: STRONG_PASSWORD,
      ADMIN_NAME: "Bea Boss",
    });
    const services = accounts.services;
    const created = await ensureOwnerAccount(services);
    expect(created.created).toBeTruthy();
    expect(created.setupUrl).toBeUndefined();
    expect(await ensureOwnerAccount(services)).toEqual({});
    const users = await listUsers(services);
    expect(users.map((user) => [user.email, user.name, user.role])).toEqual([
      ["boss@example.test", "Bea Boss", "admin"],
    ]);
    expect((await signIn(accounts, "boss@example.test", STRONG_PASSWORD)).status).toBe(200);
    const audit = await services.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "user.created")
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ via: "env" });
  });

  it("with ADMIN_* naming an existing editor: makes them admin without touching the password", async () => {
    accounts = await openAccounts(dialect, {
      ADMIN_EMAIL: "ed@example.test",
      ADMIN_PASSWORD: "another strong passphrase",
    });
    const services = accounts.services;
    await createUser(services, { email: "ed@example.test", password: STRONG_PASSWORD, role: "editor", via: "cli" });
    await ensureOwnerAccount(services);
    expect((await listUsers(services)).map((user) => user.role)).toEqual(["admin"]);
    expect((await signIn(accounts, "ed@example.test", STRONG_PASSWORD)).status).toBe(200);
  });

  it("refuses to start with a weak ADMIN_PASSWORD", async () => {
    accounts = await openAccounts(dialect, { ADMIN_EMAIL: "weak@example.test", ADMIN_PASSWORD: "password1234" });
    await expect(ensureOwnerAccount(accounts.services)).rejects.toThrow(
      "ADMIN_PASSWORD is refused: This password is too common. Please choose a less predictable one.",
    );
    expect(await listUsers(accounts.services)).toEqual([]);
  });
});
