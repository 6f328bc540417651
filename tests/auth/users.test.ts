import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createUser,
  deleteUser,
  EMAIL_TAKEN_MESSAGE,
  findUser,
  LAST_ADMIN_DELETE_MESSAGE,
  LAST_ADMIN_MESSAGE,
  listUsers,
  resetPassword,
  setRole,
} from "../../server/auth/users.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import {
  type Accounts,
  auditActions,
  OTHER_STRONG_PASSWORD,
  openAccounts,
  refusal,
  STRONG_PASSWORD,
  sessionUser,
  signIn,
} from "./accounts-fixture.ts";

/** Accounts without public sign-up: create, list, set-role, delete, reset-password. */

describe.each(TEST_DIALECTS)("user accounts on %s", (dialect) => {
  let accounts: Accounts;
  const services = () => accounts.services;

  beforeAll(async () => {
    accounts = await openAccounts(dialect);
  });
  afterAll(async () => {
    await accounts?.close();
  });

  it("creates a user with a lower-cased email, a role and a password that signs in", async () => {
    const user = await createUser(services(), {
      email: "  Ada.Admin@Example.TEST ",
      password: STRONG_PASSWORD,
      name: "Ada Lovelace",
      role: "admin",
      via: "test",
    });
    expect(user).toMatchObject({ email: "ada.admin@example.test", name: "Ada Lovelace", role: "admin" });
    const roles = await services().db.selectFrom("user_roles").selectAll().where("user_id", "=", user.id).execute();
    expect(roles.map((row) => row.role)).toEqual(["admin"]);

    const signedIn = await signIn(accounts, "ADA.ADMIN@example.test", STRONG_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(await sessionUser(accounts, signedIn.cookie)).toBe("ada.admin@example.test");

    const audit = await services()
      .db.selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "user.created")
      .where("entity_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toEqual({ email: "ada.admin@example.test", role: "admin", via: "test" });
  });

  it("refuses a second account for the same address, whatever its case", async () => {
    const error = await refusal(
      createUser(services(), {
        email: "ADA.ADMIN@example.test",
        password: STRONG_PASSWORD,
        role: "editor",
        via: "test",
      }),
    );
    expect(error).toMatchObject({ name: "Invalid", fields: { email: EMAIL_TAKEN_MESSAGE } });
  });

  it("refuses common, short and over-long passwords, and bad emails and roles; nothing is created", async () => {
    const before = (await listUsers(services())).length;
    const attempts: Array<[string, string, string, string]> = [
      ["common@example.test", "password1234", "editor", "password"],
      ["short@example.test", "short pass", "editor", "password"],
      ["long@example.test", "x".repeat(129), "editor", "password"],
      ["not-an-email", STRONG_PASSWORD, "editor", "email"],
      ["role@example.test", STRONG_PASSWORD, "owner", "role"],
    ];
    for (const [email, password, role, field] of attempts) {
      const error = await refusal(createUser(services(), { email, password, role: role as "editor", via: "test" }));
      expect(error.name, email).toBe("Invalid");
      expect(Object.keys(error.fields ?? {}), email).toEqual([field]);
    }
    const common = await refusal(
      createUser(services(), { email: "c@example.test", password: "password1234", role: "editor", via: "test" }),
    );
    expect(common.message).toBe("This password is too common. Please choose a less predictable one.");
    expect(await listUsers(services())).toHaveLength(before);
  });

  it("lists users with their role and two-factor state, oldest first", async () => {
    await createUser(services(), {
      email: "eddie@example.test",
      password: STRONG_PASSWORD,
      name: "Eddie Editor",
      role: "editor",
      via: "test",
    });
    const users = await listUsers(services());
    expect(users.map((user) => [user.email, user.role, user.twoFactorEnabled])).toEqual([
      ["ada.admin@example.test", "admin", false],
      ["eddie@example.test", "editor", false],
    ]);
  });

  it("changes a role with an audit row, but never takes admin away from the last admin", async () => {
    const ada = await findUser(services(), { email: "ada.admin@example.test" });
    const eddie = await findUser(services(), { email: "eddie@example.test" });

    const lastAdmin = await refusal(setRole(services(), { userId: ada.id, role: "editor", actorId: ada.id }));
    expect(lastAdmin).toMatchObject({ name: "Conflict", message: LAST_ADMIN_MESSAGE });
    expect((await findUser(services(), { id: ada.id })).role).toBe("admin");

    expect((await setRole(services(), { userId: eddie.id, role: "admin", actorId: ada.id })).role).toBe("admin");
    expect((await setRole(services(), { userId: ada.id, role: "editor", actorId: eddie.id })).role).toBe("editor");
    // Eddie is now the only admin.
    expect((await refusal(setRole(services(), { userId: eddie.id, role: "editor" }))).name).toBe("Conflict");
    await setRole(services(), { userId: ada.id, role: "admin", actorId: eddie.id });

    const changes = await services()
      .db.selectFrom("audit_log")
      .select(["user_id", "entity_id", "details"])
      .where("action", "=", "user.role-changed")
      .orderBy("at")
      .execute();
    expect(changes.map((row) => row.details)).toEqual([
      { email: "eddie@example.test", from: "editor", to: "admin" },
      { email: "ada.admin@example.test", from: "admin", to: "editor" },
      { email: "ada.admin@example.test", from: "editor", to: "admin" },
    ]);
    expect(changes[0]?.user_id).toBe(ada.id);
  });

  it("resets a password: the new one works, the old one does not, every session and emailed link ends", async () => {
    const eddie = await findUser(services(), { email: "eddie@example.test" });
    const before = await signIn(accounts, eddie.email, STRONG_PASSWORD);
    expect(await sessionUser(accounts, before.cookie)).toBe(eddie.email);

    const refused = await refusal(resetPassword(services(), { userId: eddie.id, password: "password1234" }));
    expect(refused).toMatchObject({
      name: "Invalid",
      fields: { password: "This password is too common. Please choose a less predictable one." },
    });

    // A reset link emailed before: the reset ends it (Better Auth's verification row).
    const verification = services().db.withTables<{
      verification: {
        id: string;
        identifier: string;
        value: string;
        expiresAt: Date;
        createdAt: Date;
        updatedAt: Date;
      };
    }>();
    await verification
      .insertInto("verification")
      .values({
        id: "verification-eddie",
        identifier: "reset-password:emailed-before",
        value: eddie.id,
        expiresAt: new Date(Date.now() + 3_600_000),
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .execute();
    await resetPassword(services(), { userId: eddie.id, password: OTHER_STRONG_PASSWORD, actorId: null });
    expect(await verification.selectFrom("verification").select("id").where("value", "=", eddie.id).execute()).toEqual(
      [],
    );
    expect(await sessionUser(accounts, before.cookie)).toBeNull();
    expect((await signIn(accounts, eddie.email, STRONG_PASSWORD)).status).toBe(401);
    expect((await signIn(accounts, eddie.email, OTHER_STRONG_PASSWORD)).status).toBe(200);
    expect(await auditActions(accounts)).toContain("user.password-reset");
  });

  it("deletes a user with their sessions; never the last admin, nor oneself", async () => {
    const ada = await findUser(services(), { email: "ada.admin@example.test" });
    const eddie = await findUser(services(), { email: "eddie@example.test" });
    const session = await signIn(accounts, eddie.email, OTHER_STRONG_PASSWORD);

    expect(await refusal(deleteUser(services(), { userId: ada.id, actorId: ada.id }))).toMatchObject({
      name: "Forbidden",
      message: "You cannot delete your own account.",
    });
    await deleteUser(services(), { userId: eddie.id, actorId: ada.id });
    expect(await sessionUser(accounts, session.cookie)).toBeNull();
    expect((await listUsers(services())).map((user) => user.email)).toEqual(["ada.admin@example.test"]);
    const roles = await services()
      .db.selectFrom("user_roles")
      .select("user_id")
      .where("user_id", "=", eddie.id)
      .execute();
    expect(roles).toEqual([]);

    const lastAdmin = await refusal(deleteUser(services(), { userId: ada.id }));
    expect(lastAdmin).toMatchObject({ name: "Conflict", message: LAST_ADMIN_DELETE_MESSAGE });
    expect((await findUser(services(), { id: ada.id })).role).toBe("admin");

    const deleted = await services()
      .db.selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "user.deleted")
      .executeTakeFirstOrThrow();
    expect(deleted).toMatchObject({ user_id: ada.id, entity_id: eddie.id });
    expect(deleted.details).toEqual({ email: "eddie@example.test", role: "admin" });
    // What Eddie did is still his: the log keeps the id of a user who has left.
    const eddiesSignIns = await services()
      .db.selectFrom("audit_log")
      .select("user_id")
      .where("action", "=", "auth.sign-in")
      .where("user_id", "=", eddie.id)
      .execute();
    expect(eddiesSignIns.length).toBeGreaterThan(0);
  });

  it("answers not-found for an unknown user", async () => {
    expect((await refusal(findUser(services(), { email: "nobody@example.test" }))).name).toBe("NotFound");
    expect((await refusal(setRole(services(), { userId: "nope", role: "admin" }))).name).toBe("NotFound");
  });
});
