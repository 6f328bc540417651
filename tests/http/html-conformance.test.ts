import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import vnuJar from "vnu-jar";
import type { Database } from "../../server/db/schema.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * Every public and sign-in page, as the built server sends it, passes the W3C Nu HTML
 * Checker without an error. The pages are fetched first, then checked in one run of the
 * checker (a JVM starts slowly). Content covers every kind of reader section.
 */

const CHAPTER = { id: "chapter-1", slug: "getting-started", title: "Getting Started", number: 1 };

async function fillContent(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("chapters")
    .values([
      { ...CHAPTER, order_index: 0, published: true, published_at: now },
      {
        id: "chapter-2",
        slug: "scanning",
        title: "Scanning",
        number: 2,
        order_index: 1,
        published: true,
        published_at: now,
      },
    ])
    .execute();
  const sections: {
    type: Database["chapter_sections"]["type"];
    content: string;
    caption?: string;
    language?: string;
  }[] = [
    { type: "heading", content: "Why scanning matters" },
    { type: "text", content: "First paragraph about <b>scanning</b>.\n\nSecond paragraph." },
    { type: "tip", content: "Always scan with credentials." },
    { type: "list", content: "Inventory assets\nScan weekly" },
    { type: "code", content: "const answer: number = 42;", language: "typescript", caption: "A typed constant" },
    { type: "image", content: "/diagram.png", caption: "Network diagram" },
    { type: "image", content: "/photo.png" },
  ];
  await db
    .insertInto("chapter_sections")
    .values(
      sections.map((section, index) => ({
        id: `section-${index}`,
        chapter_id: CHAPTER.id,
        type: section.type,
        content: section.content,
        caption: section.caption ?? null,
        language: section.language ?? null,
        order_index: index,
      })),
    )
    .execute();
  await db
    .insertInto("tips_resources")
    .values([
      {
        id: "tip-1",
        category: "AWS",
        title: "IAM hygiene",
        description: "Least privilege.",
        url: "https://example.com/aws",
        type: "external",
        order_index: 0,
      },
      {
        id: "tip-2",
        category: "Tenable",
        title: "Dashboards",
        description: "Coming up next.",
        url: null,
        type: "coming-soon",
        order_index: 1,
      },
    ])
    .execute();
  await db
    .insertInto("resources")
    .values([
      {
        id: "res-1",
        name: "OWASP",
        description: "Web security.",
        url: "https://owasp.org",
        category: "Learning",
        featured: true,
        order_index: 0,
      },
      {
        id: "res-2",
        name: "Nmap",
        description: "Scanner.",
        url: "https://nmap.org",
        category: "Tools",
        featured: false,
        order_index: 1,
      },
    ])
    .execute();
  await db
    .insertInto("certifications")
    .values({
      id: "cert-1",
      name: "Security+",
      organization: "CompTIA",
      description: "",
      status: "completed",
      date: "2022",
      order_index: 0,
    })
    .execute();
  await db
    .insertInto("skills")
    .values({ id: "skill-1", name: "AWS", level: 75, category: "Cloud", order_index: 0 })
    .execute();
}

interface VnuMessage {
  type: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

let server: RunningServer;
let dataDir: string;
let pagesDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "bastion-html-"));
  pagesDir = mkdtempSync(path.join(tmpdir(), "bastion-html-pages-"));
  const database = await prepareDatabase(
    { kind: "sqlite", file: path.join(dataDir, "bastion.sqlite") },
    pino({ level: "silent" }),
  );
  try {
    await fillContent(database.db);
  } finally {
    await database.close();
  }
  server = await startServer({ dataDir });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(pagesDir, { recursive: true, force: true });
});

/** A page as a browser gets it: following redirects, with the status it ends on. */
async function fetchPage(pathname: string, init: RequestInit = {}): Promise<{ status: number; html: string }> {
  const response = await fetch(`${server.url}${pathname}`, init);
  return { status: response.status, html: await response.text() };
}

function postForm(fields: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams(fields).toString(),
  };
}

describe("HTML conformance", () => {
  it("every public and sign-in page passes the Nu HTML Checker without an error", async () => {
    // The server logs its one-time owner set-up link, since no administrator exists.
    const setup = await server.waitForLog((line) => typeof line.setupUrl === "string");
    const setupPath = new URL(setup.setupUrl as string).pathname + new URL(setup.setupUrl as string).search;

    const pages: Array<{ name: string; path: string; status: number; init?: RequestInit }> = [
      { name: "home", path: "/", status: 200 },
      { name: "projects", path: "/projects", status: 200 },
      { name: "reader", path: `/projects/${CHAPTER.slug}`, status: 200 },
      { name: "tips", path: "/blog", status: 200 },
      { name: "resources", path: "/resources", status: 200 },
      { name: "about", path: "/about", status: 200 },
      { name: "newsletter-confirm", path: "/newsletter/confirm?token=not-a-token", status: 200 },
      { name: "newsletter-unsubscribe", path: "/newsletter/unsubscribe", status: 200 },
      { name: "not-found", path: "/no-such-page", status: 404 },
      { name: "missing-chapter", path: "/projects/no-such-chapter", status: 404 },
      { name: "sign-in", path: "/auth", status: 200 },
      {
        name: "sign-in-refused",
        path: "/auth",
        status: 401,
        init: postForm({ email: "nobody@example.test", password: "not the password at all" }),
      },
      { name: "forgot-password", path: "/auth/forgot-password", status: 200 },
      {
        name: "forgot-password-requested",
        path: "/auth/forgot-password",
        status: 200,
        init: postForm({ email: "nobody@example.test" }),
      },
      { name: "reset-password", path: "/auth/reset-password?token=not-a-token", status: 200 },
      { name: "invite", path: "/auth/invite?token=not-a-token", status: 200 },
      { name: "owner-setup", path: setupPath, status: 200 },
    ];
    const files: Record<string, string> = {};
    for (const page of pages) {
      const { status, html } = await fetchPage(page.path, page.init);
      expect({ page: page.name, status }).toEqual({ page: page.name, status: page.status });
      const file = path.join(pagesDir, `${page.name}.html`);
      writeFileSync(file, html);
      files[`file:${file}`] = page.name;
    }

    // --exit-zero-always: errors are read from the report, which names each file.
    const output = await vnuJar.vnu.check([
      "--format",
      "json",
      "--exit-zero-always",
      ...Object.keys(files).map((url) => new URL(url).pathname),
    ]);
    const report = JSON.parse(output.slice(output.indexOf("{"))) as { messages: VnuMessage[] };
    const errors = report.messages
      .filter((message) => message.type !== "info")
      .map((message) => ({
        page: files[message.url ?? ""] ?? message.url,
        line: message.lastLine,
        message: message.message,
        extract: message.extract,
      }));
    expect(errors).toEqual([]);
  }, 180_000);
});
