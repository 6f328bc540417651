import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_INTEGER_COLUMN, NUL_CHARACTER_MESSAGE } from "../../server/validation.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { request } from "./client.ts";

/**
 * Values SQLite stores and PostgreSQL refuses (a NUL character in text, an integer past
 * 2^31 − 1) are refused where the request is read, with a 400 that says why, alike on
 * both databases: from the URL, a page's form, a JSON API, an upload and Better Auth's
 * own endpoints. Nothing is written and nothing is logged as a server error.
 */

const ADMIN = { email: "admin@example.com", name: "Ada Admin", role: "admin" as const };
const NUL = "\u0000";

describe.each(TEST_DIALECTS)("input the database cannot hold, on %s", (dialect) => {
  let site: SiteWithAccounts;
  let cookie: string;

  beforeAll(async () => {
    site = await startSiteWithAccounts({ dialect, accounts: [ADMIN] });
    cookie = await signIn(site.server.url, ADMIN.email);
  });
  afterAll(async () => {
    await site?.stop();
  });

  const serverErrors = () => site.server.logs().filter((line) => (line.level ?? 0) >= 50);
  const get = (path: string) => request(`${site.server.url}${path}`, { headers: { Cookie: cookie } });
  const post = (path: string, contentType: string, body: string | Buffer, signedIn = true) =>
    request(`${site.server.url}${path}`, {
      method: "POST",
      headers: { Origin: site.server.url, "Content-Type": contentType, ...(signedIn ? { Cookie: cookie } : {}) },
      body,
    });
  const postForm = (path: string, fields: Record<string, string>, signedIn = true) =>
    post(path, "application/x-www-form-urlencoded", new URLSearchParams(fields).toString(), signedIn);
  const postJson = (path: string, body: unknown, signedIn = true) =>
    post(path, "application/json", JSON.stringify(body), signedIn);
  const countTipsAndResources = async () => {
    const database = await site.openDatabase();
    try {
      const row = await database.db
        .selectFrom("tips_resources")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirst();
      return Number(row?.count);
    } finally {
      await database.close();
    }
  };

  it("refuses a NUL character in a path or query, public or admin", async () => {
    for (const path of [
      "/auth/reset-password?token=%00",
      "/admin/newsletter?q=%00",
      "/projects/a%00b?preview",
      "/api/auth/reset-password/%00",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(response.text(), path).toContain(NUL_CHARACTER_MESSAGE);
    }
    expect(serverErrors()).toEqual([]);
  });

  it("refuses a NUL character in a page's form, signed in or not, and writes nothing", async () => {
    const tipsBefore = await countTipsAndResources();
    const answers = [
      await postForm("/auth", { email: `a${NUL}@example.com`, password: "whatever it is" }, false),
      await postForm("/admin/tips", { intent: "create", title: `Tip${NUL}`, content: "Text" }),
      await postForm("/admin/tips", { [`title${NUL}`]: "Tip" }),
    ];
    for (const response of answers) {
      expect(response.status).toBe(400);
      expect(response.text()).toContain(NUL_CHARACTER_MESSAGE);
    }
    expect(await countTipsAndResources()).toBe(tipsBefore);
    expect(serverErrors()).toEqual([]);
  });

  it("refuses a NUL character in a JSON body: Better Auth's endpoints and the product's APIs", async () => {
    const signInAnswer = await postJson(
      "/api/auth/sign-in/email",
      { email: `a${NUL}@example.com`, password: "x" },
      false,
    );
    expect(signInAnswer.status).toBe(400);
    expect(JSON.parse(signInAnswer.text()).message).toBe(NUL_CHARACTER_MESSAGE);

    const testEmail = await postJson("/api/newsletter/test-email", {
      email: "reader@example.com",
      post_title: `A${NUL}`,
    });
    expect(testEmail.status).toBe(400);
    expect(JSON.parse(testEmail.text()).error).toBe(NUL_CHARACTER_MESSAGE);

    const imported = await postJson("/api/media/import", { url: `https://example.com/${NUL}.png` });
    expect(imported.status).toBe(400);
    expect(JSON.parse(imported.text()).error).toBe(NUL_CHARACTER_MESSAGE);

    const unsubscribed = await postJson("/api/newsletter/unsubscribe", { token: `t${NUL}` }, false);
    expect(unsubscribed.status).toBe(400);
    expect(JSON.parse(unsubscribed.text()).message).toBe(NUL_CHARACTER_MESSAGE);
    expect(serverErrors()).toEqual([]);
  });

  it("refuses a NUL character in an upload's fields or file name", async () => {
    const boundary = "----bastion-test";
    const upload = (alt: string, filename: string) =>
      post(
        "/api/media",
        `multipart/form-data; boundary=${boundary}`,
        Buffer.from(
          [
            `--${boundary}`,
            'Content-Disposition: form-data; name="alt"',
            "",
            alt,
            `--${boundary}`,
            `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(filename)}`,
            "Content-Type: image/png",
            "",
            "not really an image",
            `--${boundary}--`,
            "",
          ].join("\r\n"),
        ),
      );
    for (const [alt, filename] of [
      [`Alt${NUL}`, "a.png"],
      ["Alt", `a${NUL}.png`],
    ] as const) {
      const response = await upload(alt, filename);
      expect(response.status, JSON.stringify([alt, filename])).toBe(400);
      expect(JSON.parse(response.text()).error, JSON.stringify([alt, filename])).toBe(NUL_CHARACTER_MESSAGE);
    }
    expect(serverErrors()).toEqual([]);
  });

  it("refuses a revision past what an integer column holds, as an out-of-date form", async () => {
    const tooLarge = String(MAX_INTEGER_COLUMN + 1);
    const answers = [
      await postForm("/admin/media", { intent: "update-alt", id: "missing", alt: "Alt", revision: tooLarge }),
      await postForm("/admin/projects", {
        intent: "reorder-sections",
        chapterId: "missing",
        orderedIds: "a",
        listRevision: tooLarge,
      }),
      await postForm("/admin/about", { intent: "reorder-skills", orderedIds: "a", listRevision: tooLarge }),
    ];
    for (const response of answers) expect(response.status).toBe(400);
    expect(serverErrors()).toEqual([]);
  });
});
