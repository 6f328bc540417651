import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { header, request } from "./client.ts";

/**
 * The two previews of the chapter editor over plain HTTP: the draft preview on the
 * public path (/projects/<slug>?preview) and the section editor's live preview (an
 * intent of the /admin/projects action). Editors get them; anonymous visitors and
 * users without a role do not, and learn nothing about drafts from the refusal.
 */

const ACCOUNTS = {
  editor: { email: "eve.editor@example.com", name: "Eve Editor", role: "editor" as const },
  noRole: { email: "ned.norole@example.com", name: "Ned Norole", role: null },
};

const ALLOWED_IMAGE_ORIGIN = "https://images.example.org";

describe.each(TEST_DIALECTS)("chapter previews on %s", (dialect) => {
  let site: SiteWithAccounts;
  let base: string;
  const cookies = { editor: "", noRole: "" };

  beforeAll(async () => {
    site = await startSiteWithAccounts({
      dialect,
      accounts: Object.values(ACCOUNTS),
      server: { env: { IMAGE_ORIGINS: ALLOWED_IMAGE_ORIGIN } },
      seed: async ({ db }) => {
        await db
          .insertInto("chapters")
          .values([
            { id: "chapter-out", slug: "out", title: "Out now", number: 1, order_index: 0, published: true },
            {
              id: "chapter-draft",
              slug: "secret-draft",
              title: "Secret draft",
              number: 2,
              order_index: 1,
              published: false,
            },
          ])
          .execute();
        await db
          .insertInto("chapter_sections")
          .values({
            id: "section-draft",
            chapter_id: "chapter-draft",
            type: "text",
            content: "Not yet public.",
            order_index: 0,
          })
          .execute();
        await db.insertInto("chapter_slug_redirects").values({ slug: "out-soon", chapter_id: "chapter-out" }).execute();
      },
    });
    base = site.server.url;
    cookies.editor = await signIn(base, ACCOUNTS.editor.email);
    cookies.noRole = await signIn(base, ACCOUNTS.noRole.email);
  });

  afterAll(async () => {
    await site?.stop();
  });

  const get = (path: string, cookie?: string) =>
    request(`${base}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

  describe("the draft preview", () => {
    it("shows an editor the draft in the reader, never cached nor indexed", async () => {
      const response = await get("/projects/secret-draft?preview", cookies.editor);
      expect(response.status).toBe(200);
      expect(header(response, "cache-control")).toBe("private, no-store");
      expect(header(response, "x-robots-tag")).toBe("noindex");
      const html = response.text();
      expect(html).toContain('data-testid="draft-preview-notice"');
      expect(html).toContain("Draft preview");
      expect(html).toContain("Not yet public.");
      expect(html).toMatch(/<meta name="robots" content="noindex"/);
      // Placed where it will stand: after the published chapter.
      expect(html).toMatch(/rel="prev"[^>]*>[\s\S]*Out now/);
    });

    it("is the 404 of any missing chapter for anonymous visitors and users without a role", async () => {
      const missing = await get("/projects/no-such-chapter");
      expect(missing.status).toBe(404);
      for (const cookie of [undefined, cookies.noRole]) {
        for (const path of ["/projects/secret-draft?preview", "/projects/secret-draft"]) {
          const response = await get(path, cookie);
          expect(response.status, `${path} (${cookie ? "no role" : "anonymous"})`).toBe(404);
          const html = response.text();
          expect(html).toContain("Oops! Page not found");
          expect(html).not.toContain("Secret draft");
          expect(html).not.toContain("Not yet public.");
        }
      }
      // Without ?preview an editor reads the public site like anyone else.
      expect((await get("/projects/secret-draft", cookies.editor)).status).toBe(404);
    });

    it("sends anyone else to a published chapter's own address, and an editor from a former slug to its preview", async () => {
      for (const cookie of [undefined, cookies.noRole]) {
        for (const path of ["/projects/out?preview", "/projects/out-soon?preview"]) {
          const response = await get(path, cookie);
          expect(response.status, `${path} (${cookie ? "no role" : "anonymous"})`).toBe(302);
          expect(header(response, "location")).toBe("/projects/out");
        }
      }
      const renamed = await get("/projects/out-soon?preview", cookies.editor);
      expect(renamed.status).toBe(302);
      expect(header(renamed, "location")).toBe("/projects/out?preview");
    });

    it("leaves the published chapter's page to the page cache for visitors", async () => {
      await get("/projects/out");
      const cached = await get("/projects/out");
      expect(cached.status).toBe(200);
      expect(header(cached, "x-page-cache")).toBe("hit");
      expect(cached.text()).not.toContain("draft-preview-notice");
      const previewed = await get("/projects/out?preview", cookies.editor);
      expect(header(previewed, "cache-control")).toBe("private, no-store");
      expect(previewed.text()).toContain("Editor preview");
    });
  });

  describe("the section editor's live preview", () => {
    const preview = (fields: Record<string, string>, cookie?: string) =>
      post({ intent: "preview-section", ...fields }, cookie);
    const post = (fields: Record<string, string>, cookie?: string) => {
      const body = new URLSearchParams(fields).toString();
      return request(`${base}/admin/projects.data`, {
        method: "POST",
        headers: {
          Origin: base,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": String(Buffer.byteLength(body)),
          ...(cookie ? { Cookie: cookie } : {}),
        },
        body,
      });
    };

    it("prepares a code section with Shiki's highlighting for an editor, saving nothing", async () => {
      const database = await site.openDatabase();
      const sectionCount = async () =>
        Number(
          (
            await database.db
              .selectFrom("chapter_sections")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await sectionCount();
      const response = await preview({ type: "code", content: "nmap -sV 10.0.0.1", language: "bash" }, cookies.editor);
      expect(await sectionCount()).toBe(before);
      await database.close();
      expect(response.status).toBe(200);
      expect(header(response, "cache-control")).toBe("private, no-store");
      const answer = response.text();
      expect(answer).toContain("shiki");
      expect(answer).toContain("nmap");
    });

    it("answers input that is not a section with 400, never 500", async () => {
      const cases: Array<Record<string, string>> = [
        {},
        { type: "poem", content: "Roses" },
        { type: "text", content: "   " },
        { type: "image", content: "javascript:alert(1)" },
        { type: "text", content: "x".repeat(200_001) },
        { type: "code", content: "print()", language: "x".repeat(51) },
      ];
      for (const fields of cases) {
        const response = await preview(fields, cookies.editor);
        expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      }
    });

    it("shows images only from the origins the pages' CSP allows, and the editor cannot save others", async () => {
      const page = await request(`${base}/projects/out`, { headers: { Accept: "text/html" } });
      const imageSources = /img-src ([^;]*)/.exec(header(page, "content-security-policy") ?? "")?.[1]?.split(" ");
      expect(imageSources).toContain(ALLOWED_IMAGE_ORIGIN);
      expect(imageSources).not.toContain("https:");

      const allowed = await preview({ type: "image", content: `${ALLOWED_IMAGE_ORIGIN}/net.png` }, cookies.editor);
      expect(allowed.status).toBe(200);
      expect(allowed.text()).toContain(`${ALLOWED_IMAGE_ORIGIN}/net.png`);
      const own = await preview({ type: "image", content: `${base}/media/project-images/a.png` }, cookies.editor);
      expect(own.status).toBe(200);

      const refusal =
        "Images from https://tracker.example are not shown on this site: import the image into the media library, or ask an admin to add https://tracker.example to IMAGE_ORIGINS.";
      const outside = await preview({ type: "image", content: "https://tracker.example/pixel.png" }, cookies.editor);
      expect(outside.status).toBe(400);
      expect(outside.text()).toContain(refusal);
      const saved = await post(
        {
          intent: "add-section",
          chapterId: "chapter-out",
          type: "image",
          content: "https://tracker.example/pixel.png",
        },
        cookies.editor,
      );
      expect(saved.status).toBe(400);
      expect(saved.text()).toContain(refusal);
      const database = await site.openDatabase();
      const images = await database.db
        .selectFrom("chapter_sections")
        .select("content")
        .where("chapter_id", "=", "chapter-out")
        .where("type", "=", "image")
        .execute();
      await database.close();
      expect(images).toEqual([]);
    });

    it("is refused to anonymous visitors and users without a role", async () => {
      const anonymous = await preview({ type: "text", content: "Hello" });
      expect([202, 302]).toContain(anonymous.status);
      expect(anonymous.text()).not.toContain("Hello");
      const noRole = await preview({ type: "text", content: "Hello" }, cookies.noRole);
      expect(noRole.status).toBe(403);
      expect(noRole.text()).not.toContain("Hello");
    });
  });
});
