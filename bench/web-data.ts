import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import pino from "pino";
import { createUser } from "../server/auth/users.ts";
import { loadConfig } from "../server/config.ts";
import type { Database } from "../server/db/schema.ts";
import { prepareDatabase } from "../server/db/setup.ts";
import { createAuthForDatabase } from "../server/services.ts";
import { TEST_PASSWORD } from "../tests/helpers/accounts.ts";

/**
 * bench:web's realistic data set, written straight into a fresh database: chapters of
 * 30 sections (text, code, images, lists, tips), tips, resources, certifications and
 * skills, and the editor account the rendered pages are measured for.
 */

export const CHAPTERS = 20;
export const SECTIONS_PER_CHAPTER = 30;
export const EDITOR = { email: "editor@bench.example", name: "Bench Editor" };

const CODE_SAMPLES = [
  {
    language: "bash",
    content:
      'nmap -sV -p 1-65535 --open -oA scans/full 10.0.0.0/24\nfor host in $(cat hosts.txt); do\n  curl -sk "https://$host/.well-known/security.txt"\ndone',
  },
  {
    language: "python",
    content:
      'import boto3\n\ndef public_buckets():\n    s3 = boto3.client("s3")\n    for bucket in s3.list_buckets()["Buckets"]:\n        acl = s3.get_bucket_acl(Bucket=bucket["Name"])\n        if any(g["Grantee"].get("URI", "").endswith("AllUsers") for g in acl["Grants"]):\n            yield bucket["Name"]\n',
  },
  {
    language: "json",
    content:
      '{\n  "Version": "2012-10-17",\n  "Statement": [{ "Effect": "Deny", "Action": "s3:*", "Resource": "*",\n    "Condition": { "Bool": { "aws:SecureTransport": "false" } } }]\n}',
  },
  {
    language: "typescript",
    content:
      "export async function scan(targets: string[]): Promise<Finding[]> {\n  const findings: Finding[] = [];\n  for (const target of targets) {\n    const response = await fetch(`https://$" +
      '{target}`, { redirect: "manual" });\n    if (!response.headers.get("strict-transport-security")) findings.push({ target, issue: "no HSTS" });\n  }\n  return findings;\n}',
  },
];

const PARAGRAPH =
  "Vulnerability management is a loop, not a project: discover the assets, assess them, prioritise what matters to the business, remediate, and verify that the fix held. Each pass teaches you something about the environment that the last scan missed.";

/** An SVG figure as a data: URI (the CSP allows data: images). */
function figureDataUri(label: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360"><rect width="640" height="360" fill="#0f172a"/><path d="M40 300 L200 180 L320 240 L480 100 L600 160" fill="none" stroke="#22d3ee" stroke-width="6"/><text x="40" y="60" fill="#e2e8f0" font-family="sans-serif" font-size="28">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function sectionFor(chapter: number, index: number) {
  const kind = index % 10;
  if (kind === 0)
    return {
      type: "heading" as const,
      content: `Part ${index / 10 + 1}: scanning chapter ${chapter}`,
      caption: null,
      language: null,
    };
  if (kind === 3 || kind === 7) {
    const sample = CODE_SAMPLES[(chapter + index) % CODE_SAMPLES.length] as (typeof CODE_SAMPLES)[number];
    return {
      type: "code" as const,
      content: sample.content,
      caption: `Listing ${chapter}.${index}`,
      language: sample.language,
    };
  }
  if (kind === 5) {
    return {
      type: "image" as const,
      // A small inline SVG: the data set is written straight into the database, so the
      // media library holds no files to point at (they would have to be uploaded through
      // /api/media first), and a broken image would cost the page its Lighthouse
      // best-practices score.
      content: figureDataUri(`Figure ${chapter}.${index}`),
      caption: `Figure ${chapter}.${index}: the dashboard after the first scan`,
      language: null,
    };
  }
  if (kind === 6) {
    return {
      type: "list" as const,
      content:
        "Inventory every asset\nAuthenticate the scans\nTrack findings to closure\nReport on risk, not on counts",
      caption: null,
      language: null,
    };
  }
  if (kind === 9) {
    return {
      type: "tip" as const,
      content: "Schedule authenticated scans outside business hours and tell the SOC first.",
      caption: null,
      language: null,
    };
  }
  return { type: "text" as const, content: `${PARAGRAPH}\n\n${PARAGRAPH}`, caption: null, language: null };
}

export async function insertDataSet(db: Kysely<Database>): Promise<string[]> {
  const day = (offset: number) => new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000).toISOString();
  const slugs: string[] = [];
  for (let number = 1; number <= CHAPTERS; number++) {
    const id = randomUUID();
    const slug = `chapter-${number}-vulnerability-management-in-practice`;
    slugs.push(slug);
    await db
      .insertInto("chapters")
      .values({
        id,
        slug,
        title: `Chapter ${number}: Vulnerability management in practice`,
        number,
        order_index: number,
        published: true,
        published_at: day(number * 7),
        created_at: day(number * 7),
        updated_at: day(number * 7),
      })
      .execute();
    await db
      .insertInto("chapter_sections")
      .values(
        Array.from({ length: SECTIONS_PER_CHAPTER }, (_, index) => ({
          id: randomUUID(),
          chapter_id: id,
          order_index: index,
          ...sectionFor(number, index),
        })),
      )
      .execute();
  }
  const tipCategories = ["Tenable", "AWS", "Security Tips", "Career"] as const;
  await db
    .insertInto("tips_resources")
    .values(
      Array.from({ length: 40 }, (_, index) => ({
        id: randomUUID(),
        category: tipCategories[index % 4] as (typeof tipCategories)[number],
        title: `Tip ${index + 1}: tune your scan policies`,
        description: "Start from a template, remove the plugins you never act on, and keep the credentialed checks.",
        url: index % 5 === 4 ? null : `https://example.com/tips/${index + 1}`,
        type: index % 5 === 4 ? ("coming-soon" as const) : ("external" as const),
        order_index: index,
        created_at: day(index * 3),
      })),
    )
    .execute();
  const resourceCategories = ["Learning", "Tools", "News", "Certifications", "Services"] as const;
  await db
    .insertInto("resources")
    .values(
      Array.from({ length: 40 }, (_, index) => ({
        id: randomUUID(),
        name: `Resource ${index + 1}`,
        description: "A well-maintained reference that security teams keep coming back to.",
        url: `https://example.org/resources/${index + 1}`,
        category: resourceCategories[index % 5] as (typeof resourceCategories)[number],
        featured: index < 6,
        order_index: index,
        created_at: day(index * 2),
      })),
    )
    .execute();
  await db
    .insertInto("certifications")
    .values(
      ["CISSP", "OSCP", "AWS Security Specialty", "CCSP", "Tenable Certified"].map((name, index) => ({
        id: randomUUID(),
        name,
        organization: "Certification body",
        description: `${name}: what it covers and why it helped.`,
        date: `202${index}`,
        status: (["completed", "completed", "in-progress", "planned", "completed"] as const)[index],
        order_index: index,
      })),
    )
    .execute();
  await db
    .insertInto("skills")
    .values(
      ["Vulnerability management", "AWS", "Python", "Threat modelling", "Incident response", "Terraform"].map(
        (name, index) => ({ id: randomUUID(), name, level: 95 - index * 7, category: "Technical", order_index: index }),
      ),
    )
    .execute();
  return slugs;
}

/** The editor the rendered pages are measured for: created through the product's account service. */
export async function insertEditor(
  config: ReturnType<typeof loadConfig>,
  database: Awaited<ReturnType<typeof prepareDatabase>>,
) {
  const { auth, close } = createAuthForDatabase(config, database, pino({ level: "silent" }));
  try {
    await createUser(
      { auth, db: database.db },
      { ...EDITOR, password: TEST_PASSWORD, role: "editor", via: "test", emailVerified: true },
    );
  } finally {
    await close();
  }
}

/** The public pages the benches load: the home page, a chapter from the middle of the course, the lists, about. */
export function benchPages(slugs: string[]): { chapter: string; pages: string[] } {
  const chapter = `/projects/${slugs[Math.floor(slugs.length / 2)]}`;
  return { chapter, pages: ["/", chapter, "/blog", "/resources", "/about"] };
}

/**
 * A fresh work folder whose `data` folder holds a SQLite site with the data set and the
 * editor; the database is left open for more rows. Returns the chapter slugs in order.
 */
export async function createBenchSite(prefix: string) {
  const workDir = mkdtempSync(path.join(tmpdir(), prefix));
  const dataDir = path.join(workDir, "data");
  mkdirSync(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" });
  const database = await prepareDatabase(config.database, pino({ level: "silent" }));
  const slugs = await insertDataSet(database.db);
  await insertEditor(config, database);
  return { workDir, dataDir, database, slugs };
}
