import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TABLES } from "../../server/transfer/tables.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { actionPath, BODY_ROUTES } from "../helpers/route-table.ts";
import { request } from "./client.ts";

/**
 * Every endpoint that takes a request body — each page action and API route of the route
 * table, so a new one is covered without anyone remembering — gets at least 500
 * generated bodies, spread over an anonymous visitor, an editor and an admin: wrong
 * types, missing and extra fields, huge strings, Unicode edge cases, null bytes, deep
 * nesting, duplicate keys, wrong content types and multipart garbage. Every answer must
 * be a 2xx, 3xx or 4xx with a body, never a 5xx; a batch answered only with refusals
 * must leave every table as it was; the server must stay up.
 */

const BODIES_PER_ENDPOINT = 500;
const CONCURRENCY = 4;
const ROLES = ["anonymous", "editor", "admin"] as const;
type Role = (typeof ROLES)[number];

const ENDPOINTS = BODY_ROUTES.map((route) => actionPath(route, "fuzz"));

/** The intents and field names the forms use, read from the app's source: fuzzing near the real shapes. */
function formWords(): string[] {
  const words = new Set(["intent", "id", "email", "token", "name", "password", "url", "alt", "title", "listRevision"]);
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx)$/.test(entry.name) && /intent/i.test(readFileSync(full, "utf8"))) {
        for (const match of readFileSync(full, "utf8").matchAll(/"([a-z]+(?:-[a-z]+)+)"/g))
          words.add(match[1] as string);
      }
    }
  };
  walk(path.resolve(import.meta.dirname, "../../app/components"));
  return [...words];
}

// Counters and records that any request may touch, by design: sessions, rate limits,
// failed sign-ins in the audit log, page views.
const BOOKKEEPING = new Set(["session", "rateLimit", "request_limits", "audit_log", "page_views", "verification"]);

interface Body {
  contentType?: string;
  payload: string | Buffer;
}

function bodies(words: string[]): fc.Arbitrary<Body> {
  const text = fc.oneof(
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 5 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 5 },
    {
      arbitrary: fc.constantFrom(
        "\u0000",
        "\u202e",
        "\ud800",
        "\uffff",
        "𝕏".repeat(50),
        "<script>alert(1)</script>",
        "' OR 1=1 --",
      ),
      weight: 5,
    },
    { arbitrary: fc.constantFrom(...words), weight: 5 },
    // Huge strings, just past the limits fields have (100 and 5,000 characters) and far
    // past them, one value in about twenty: each costs its transfer and parse.
    {
      arbitrary: fc.constantFrom(101, 5_001, 100_001, 300_000).map((length) => "x".repeat(length)),
      weight: 1,
    },
  );
  const value = fc.oneof(
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(text, { maxLength: 3 }),
  );
  const fields = fc.dictionary(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 10 })), value, {
    maxKeys: 6,
  });
  const json: fc.Arbitrary<Body> = fc.oneof(
    fields.map((object) => ({ contentType: "application/json", payload: JSON.stringify(object) })),
    fc.jsonValue().map((anything) => ({ contentType: "application/json", payload: JSON.stringify(anything) ?? "" })),
    fc.nat({ max: 20_000 }).map((depth) => ({
      contentType: "application/json",
      payload: `${"[".repeat(depth)}${"]".repeat(depth)}`,
    })),
    fc.tuple(fc.constantFrom(...words), text, text).map(([key, first, second]) => ({
      contentType: "application/json",
      payload: `{${JSON.stringify(key)}:${JSON.stringify(first)},${JSON.stringify(key)}:${JSON.stringify(second)}}`,
    })),
  );
  const form: fc.Arbitrary<Body> = fields.map((object) => {
    const params = new URLSearchParams();
    for (const [key, entry] of Object.entries(object)) params.append(key, String(entry));
    return { contentType: "application/x-www-form-urlencoded", payload: params.toString() };
  });
  const multipart: fc.Arbitrary<Body> = fc.oneof(
    fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({
      contentType: "multipart/form-data; boundary=fuzz",
      payload: Buffer.from(bytes),
    })),
    fields.map((object) => ({
      contentType: "multipart/form-data; boundary=fuzz",
      payload: `${Object.entries(object)
        .map(([key, entry]) => `--fuzz\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${String(entry)}\r\n`)
        .join("")}--fuzz--\r\n`,
    })),
  );
  const other: fc.Arbitrary<Body> = fc
    .tuple(
      fc.constantFrom(undefined, "text/plain", "application/xml", "application/octet-stream", "image/png"),
      fc.string({ maxLength: 200 }),
    )
    .map(([contentType, payload]) => ({ contentType, payload }));
  return fc.oneof(json, form, multipart, other);
}

let site: SiteWithAccounts;
const cookies: Record<Role, string | undefined> = { anonymous: undefined, editor: undefined, admin: undefined };

beforeAll(async () => {
  site = await startSiteWithAccounts({
    // PostgreSQL when the run has it: the stricter of the two (no NUL in text, 32-bit
    // integers), so a value that only one database refuses shows there.
    dialect: TEST_DIALECTS.includes("postgres") ? "postgres" : "sqlite",
    accounts: [
      { email: "fuzz.editor@example.com", name: "Fuzz Editor", role: "editor" },
      { email: "fuzz.admin@example.com", name: "Fuzz Admin", role: "admin" },
    ],
    // Each request from its own address, so that per-address limits leave the validation to test.
    server: { env: { TRUST_PROXY: "1" } },
  });
  cookies.editor = await signIn(site.server.url, "fuzz.editor@example.com", { clientIp: "10.200.0.1" });
  cookies.admin = await signIn(site.server.url, "fuzz.admin@example.com", { clientIp: "10.200.0.2" });
});

afterAll(async () => {
  await site?.stop();
});

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

async function tableChecksums(): Promise<Map<string, string>> {
  const database = await site.openDatabase();
  try {
    const sums = new Map<string, string>();
    for (const table of TABLES) {
      if (BOOKKEEPING.has(table.name)) continue;
      const order = sql.join(table.key.map((column) => sql.ref(column)));
      const { rows } = await sql`select * from ${sql.table(table.name)} order by ${order}`.execute(database.db);
      sums.set(table.name, createHash("sha256").update(JSON.stringify(rows)).digest("hex"));
    }
    return sums;
  } finally {
    await database.close();
  }
}

describe("every endpoint under generated bodies", () => {
  it(`answers ${BODIES_PER_ENDPOINT} bodies per endpoint without a 5xx, and refusals change nothing`, async () => {
    const words = formWords();
    let requests = 0;
    let clientNumber = 0;
    for (const endpoint of ENDPOINTS) {
      for (const role of ROLES) {
        const before = await tableChecksums();
        const statuses: number[] = [];
        // Sampled with a fixed seed (a failure names its body and is the same on the next
        // run), and sent a few at a time: the server, not the client, sets the pace.
        const samples = fc.sample(bodies(words), {
          numRuns: Math.ceil(BODIES_PER_ENDPOINT / ROLES.length),
          seed: 20_261_124 + requests,
        });
        await inParallel(samples, CONCURRENCY, async (body) => {
          clientNumber++;
          const headers: Record<string, string> = {
            Origin: site.server.url,
            "X-Forwarded-For": `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`,
          };
          if (body.contentType) headers["Content-Type"] = body.contentType;
          const cookie = cookies[role];
          if (cookie) headers.Cookie = cookie;
          const response = await request(`${site.server.url}${endpoint}`, {
            method: "POST",
            headers,
            body: body.payload,
          });
          requests++;
          statuses.push(response.status);
          const label = `${role} POST ${endpoint} with ${body.contentType}: ${String(body.payload).slice(0, 120)}`;
          expect(response.status, label).toBeGreaterThanOrEqual(200);
          expect(response.status, `${label} → ${response.text().slice(0, 200)}`).toBeLessThan(500);
          if (response.status >= 400) expect(response.body.length, label).toBeGreaterThan(0);
        });
        if (statuses.every((status) => status >= 400)) {
          expect(await tableChecksums(), `${role} POST ${endpoint}: refused requests changed rows`).toEqual(before);
        }
      }
    }
    const health = await request(`${site.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(site.server.logs().filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
    console.log(`fuzzed ${requests} requests over ${ENDPOINTS.length} endpoints, as ${ROLES.join(", ")}`);
    expect(requests).toBeGreaterThanOrEqual(ENDPOINTS.length * BODIES_PER_ENDPOINT);
  }, 900_000);
});
