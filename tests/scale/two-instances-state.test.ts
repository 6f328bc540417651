import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import type { RunningServer } from "../helpers/server.ts";
import { request } from "../http/client.ts";
import { type Cluster, HAS_POSTGRES, header, postForm, signInThrough, startCluster, timeUntil } from "./cluster.ts";
import { type SmsReceiver, startSmsReceiver } from "./sms-receiver.ts";

/**
 * Two real server processes on one PostgreSQL database, as behind a load balancer (see
 * two-instances.test.ts): what they keep in the database rather than in memory. Sign-in
 * and subscription limits count the attempts made on both, a role change or an account
 * deleted on one holds on the other at its next request, and each text message of the
 * SMS outbox is sent once while both SMS workers run.
 */

const PUBLIC_URL = "http://bastion-cluster.test";
/**
 * Text messages, each answered by the provider after SMS_DELAY_MS. A worker sends them one
 * after another, claiming each right before its send: alone, it would still be sending
 * 5 s (its poll interval) after it started, by when the other worker has polled and
 * claimed some.
 */
const TEXT_MESSAGES = 80;
const SMS_DELAY_MS = 120;
const ADMIN = { email: "ada.cluster@example.com", name: "Ada Cluster", role: "admin" as const };
const ROBIN = { email: "robin.roles@example.com", name: "Robin Roles", role: "editor" as const };

describe.skipIf(!HAS_POSTGRES)("state shared by two instances (PostgreSQL)", () => {
  let sms: SmsReceiver;
  let cluster: Cluster;
  let database: DatabaseHandle;
  let a: RunningServer;
  let b: RunningServer;
  let admin: string;

  beforeAll(async () => {
    sms = await startSmsReceiver(SMS_DELAY_MS);
    cluster = await startCluster({
      instances: 2,
      publicUrl: PUBLIC_URL,
      // Each attempt below comes from its own made-up client address (X-Forwarded-For).
      env: { TRUST_PROXY: "1" },
      // The SMS endpoint tells which instance sent a message by its credentials.
      instanceEnv: (index) => ({ SMS_URL: sms.urlFor(`instance-${index}`) }),
      accounts: [ADMIN, ROBIN],
    });
    [a, b] = cluster.instances as [RunningServer, RunningServer];
    database = await cluster.openDatabase();
    admin = (await signInThrough(b.url, PUBLIC_URL, ADMIN.email, { clientIp: "10.20.0.2" })).cookie;
  });

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
    await sms?.close();
  });

  it("counts sign-in attempts on both instances against one limit", async () => {
    // Better Auth allows 5 sign-in attempts a minute per client address (server/auth/auth.ts).
    const attempt = (instance: RunningServer) =>
      signInThrough(instance.url, PUBLIC_URL, "nobody@example.com", {
        password: "wrong password 123",
        clientIp: "10.20.0.99",
      });
    const statuses: number[] = [];
    for (const instance of [a, b, a, b, a]) statuses.push((await attempt(instance)).response.status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await attempt(b)).response.status).toBe(429);
    expect((await attempt(a)).response.status).toBe(429);
  });

  it("counts subscriptions of one address on both instances against one limit", async () => {
    // 5 an hour per address (server/newsletter/api.ts); each attempt from another client address.
    const subscribe = (instance: RunningServer, attempt: number) => {
      const body = JSON.stringify({ email: "limited.reader@example.test" });
      return request(`${instance.url}/api/newsletter/subscribe`, {
        method: "POST",
        headers: {
          Origin: PUBLIC_URL,
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
          "X-Forwarded-For": `10.30.0.${attempt}`,
        },
        body,
      });
    };
    const statuses: number[] = [];
    for (const [attempt, instance] of [a, b, a, b, a, b].entries())
      statuses.push((await subscribe(instance, attempt)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("applies a role change and an account deletion made on one instance at the other's next request", async () => {
    const robin = (await signInThrough(b.url, PUBLIC_URL, ROBIN.email, { clientIp: "10.20.0.3" })).cookie;
    const settings = (instance: RunningServer) =>
      request(`${instance.url}/admin/settings`, { headers: { Cookie: robin, Accept: "text/html" } });
    expect((await settings(b)).status).toBe(403);
    const { id } = await database.db
      .withTables<{ user: { id: string; email: string } }>()
      .selectFrom("user")
      .select("id")
      .where("email", "=", ROBIN.email)
      .executeTakeFirstOrThrow();

    const promoted = await postForm(a.url, PUBLIC_URL, "/admin/users", admin, {
      intent: "set-role",
      userId: id,
      role: "admin",
    });
    expect(promoted.status).toBeLessThan(400);
    expect((await settings(b)).status).toBe(200);

    const deleted = await postForm(b.url, PUBLIC_URL, "/admin/users", admin, { intent: "delete-user", userId: id });
    expect(deleted.status).toBeLessThan(400);
    const signedOut = await settings(a);
    expect(signedOut.status).toBe(302);
    expect(header(signedOut, "location")).toMatch(/^\/auth\?/);
  });

  it(`sends each of ${TEXT_MESSAGES} text messages once, both SMS workers sending`, async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const rows = Array.from({ length: TEXT_MESSAGES }, (_, index) => ({
      id: `sms-cluster-${index}`,
      kind: "two-factor-code",
      user_id: null,
      to_number: `+4915100000${String(index).padStart(3, "0")}`,
      body: `Your code is ${String(100000 + index)}`,
      expires_at: expiresAt,
    }));
    await database.db.insertInto("sms_outbox").values(rows).execute();

    await timeUntil(async () => sms.received.length >= TEXT_MESSAGES, {
      since: performance.now(),
      everyMs: 100,
      timeoutMs: 60_000,
      what: `${TEXT_MESSAGES} text messages at the provider`,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ids = sms.received.map((message) => message.id);
    expect(ids.length).toBe(TEXT_MESSAGES);
    expect(new Set(ids)).toEqual(new Set(rows.map((row) => row.id)));
    const bySender = new Map<string, number>();
    for (const message of sms.received) bySender.set(message.sender, (bySender.get(message.sender) ?? 0) + 1);
    process.stdout.write(
      `two instances: text messages per sending instance ${JSON.stringify(Object.fromEntries(bySender))}\n`,
    );
    expect([...bySender.keys()].sort()).toEqual(["instance-0", "instance-1"]);
  });
});
