import { type KyselyPlugin, type QueryId, SelectQueryNode, TableNode } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { roleOf, setUserRole } from "../../server/auth/roles.ts";
import {
  adminExists,
  createUser,
  deleteUser,
  findUser,
  LAST_ADMIN_DELETE_MESSAGE,
  LAST_ADMIN_MESSAGE,
  listUsers,
  setRole,
  type UserSummary,
} from "../../server/auth/users.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type Accounts, openAccounts, refusal, STRONG_PASSWORD } from "./accounts-fixture.ts";

/**
 * The last administrator stays, even when the target's role changes between the
 * request's first read of it and the locked check: a delete or role change that
 * started while the target was not an admin must not remove them once they have
 * become the only one.
 */

/** Reads of user_roles (a SELECT whose FROM is that table). */
function readsUserRoles(node: unknown): boolean {
  if (!SelectQueryNode.is(node as SelectQueryNode)) return false;
  return (node as SelectQueryNode).from?.froms.some(
    (from) => TableNode.is(from) && from.table.identifier.name === "user_roles",
  ) as boolean;
}

/**
 * A plugin that runs `meanwhile` once, right after the first read of user_roles made
 * through it has its result and before the caller sees it: a change by someone else
 * that lands between the service's first read and what follows.
 */
function afterFirstRoleRead(meanwhile: () => Promise<void>): KyselyPlugin & { ran: () => boolean } {
  const roleReads = new WeakSet<QueryId>();
  let ran = false;
  return {
    transformQuery({ node, queryId }) {
      if (readsUserRoles(node)) roleReads.add(queryId);
      return node;
    },
    async transformResult({ result, queryId }) {
      if (!ran && roleReads.has(queryId)) {
        ran = true;
        await meanwhile();
      }
      return result;
    },
    ran: () => ran,
  };
}

describe.each(TEST_DIALECTS)("the last administrator on %s", (dialect) => {
  let accounts: Accounts;
  let ada: UserSummary;

  beforeEach(async () => {
    accounts = await openAccounts(dialect);
    ada = await createUser(accounts.services, {
      email: "ada@example.test",
      password: STRONG_PASSWORD,
      role: "admin",
      via: "test",
    });
  });
  afterEach(async () => {
    await accounts?.close();
  });

  /** The services of a request during which `target` is made an admin and Ada stops being one. */
  function servicesWhile(target: UserSummary) {
    const plugin = afterFirstRoleRead(async () => {
      await setRole(accounts.services, { userId: target.id, role: "admin", actorId: ada.id });
      await setRole(accounts.services, { userId: ada.id, role: "editor", actorId: target.id });
    });
    return { services: { ...accounts.services, db: accounts.services.db.withPlugin(plugin) }, plugin };
  }

  it("does not delete a user who became the only admin after the delete began", async () => {
    const eve = await createUser(accounts.services, {
      email: "eve@example.test",
      password: STRONG_PASSWORD,
      role: "editor",
      via: "test",
    });
    const { services, plugin } = servicesWhile(eve);

    const refused = await refusal(deleteUser(services, { userId: eve.id, actorId: ada.id }));
    expect(plugin.ran()).toBe(true);
    expect(refused).toMatchObject({ name: "Conflict", message: LAST_ADMIN_DELETE_MESSAGE });
    expect((await findUser(accounts.services, { id: eve.id })).role).toBe("admin");
    expect(await adminExists(accounts.services.db)).toBe(true);
  });

  it("does not demote a user who became the only admin after the role change began", async () => {
    const nora = await createUser(accounts.services, {
      email: "nora@example.test",
      password: STRONG_PASSWORD,
      role: "editor",
      via: "test",
    });
    // No role at first: the change to editor is then a change, whatever was read before the lock.
    await setUserRole(accounts.services.db, nora.id, null);
    const { services, plugin } = servicesWhile(nora);

    const refused = await refusal(setRole(services, { userId: nora.id, role: "editor", actorId: ada.id }));
    expect(plugin.ran()).toBe(true);
    expect(refused).toMatchObject({ name: "Conflict", message: LAST_ADMIN_MESSAGE });
    expect(await roleOf(accounts.services.db, nora.id)).toBe("admin");
    expect((await listUsers(accounts.services)).filter((user) => user.role === "admin")).toHaveLength(1);
  });
});
