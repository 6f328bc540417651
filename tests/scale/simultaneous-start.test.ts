import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/connection.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { CLUSTER_AUTH_SECRET, HAS_POSTGRES, signInThrough } from "./cluster.ts";

/**
 * The first start of a site with several instances: started at the same moment on a
 * blank PostgreSQL database with the same ADMIN_EMAIL, they all come up (one applies the
 * migrations while the others wait), exactly one owner account exists, and it signs in
 * on each of them.
 */

const PUBLIC_URL = "http://bastion-first-start.test";
const OWNER = { ADMIN_EMAIL: "owner@example.com", ADMIN_PASSWORD: "first start password 42", ADMIN_NAME: "Owner" };

describe.skipIf(!HAS_POSTGRES)("instances started together on a blank database", () => {
  let database: TestDatabase;
  const instances: RunningServer[] = [];

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await database?.drop();
  });

  it("all come up with one owner account, which signs in on each", async () => {
    database = await createTestDatabase("postgres");
    const env = { PUBLIC_URL, AUTH_SECRET: CLUSTER_AUTH_SECRET, ...OWNER };
    const started = await Promise.allSettled([0, 1, 2].map(() => startServer({ databaseUrl: database.url, env })));
    for (const outcome of started) if (outcome.status === "fulfilled") instances.push(outcome.value);
    expect(started.map((outcome) => (outcome.status === "rejected" ? String(outcome.reason) : "started"))).toEqual([
      "started",
      "started",
      "started",
    ]);

    const handle = openDatabase(database.config);
    try {
      const owners = await handle.db
        .withTables<{ user: { id: string; email: string } }>()
        .selectFrom("user")
        .innerJoin("user_roles", "user_roles.user_id", "user.id")
        .select(["user.email", "user_roles.role"])
        .execute();
      expect(owners).toEqual([{ email: OWNER.ADMIN_EMAIL, role: "admin" }]);
    } finally {
      await handle.close();
    }
    for (const instance of instances) {
      const { response } = await signInThrough(instance.url, PUBLIC_URL, OWNER.ADMIN_EMAIL, {
        password: OWNER.ADMIN_PASSWORD,
      });
      expect(response.status, instance.url).toBe(200);
    }
  });
});
