import { type Kysely, sql } from "kysely";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { expect } from "vitest";
import type { Database } from "../../server/db/schema.ts";
import { UnsafeLinkError } from "../../server/mail/templates.ts";
import { type NotificationEmail, renderNotificationEmail } from "../../server/newsletter/notification-email.ts";
import type { TestAccount } from "../../tests/helpers/accounts.ts";
import { upload } from "../../tests/http/media-client.ts";
import { problemsOf, type Trapped } from "./xss-checks.ts";
import { fitting, httpVariant, PAYLOADS, type Payload, packed } from "./xss-corpus.ts";

/** The stored-XSS test's other writers and readers: user names, media, the feed and emails. */

/**
 * The payloads that fit a user name (100 characters), packed several to a name, and
 * those names in rounds of as many as there are payload editors: each account costs a
 * password hash (half a second here), so a few accounts carry every name in turn.
 */
const NAME_ROUND_SIZE = 13;
const NAMES = packed(100, " ", fitting(100));
export const NAME_ROUNDS: string[][] = Array.from({ length: Math.ceil(NAMES.length / NAME_ROUND_SIZE) }, (_, round) =>
  NAMES.slice(round * NAME_ROUND_SIZE, (round + 1) * NAME_ROUND_SIZE),
);

/** The payloads of the first round's names, which the editors are created with. */
export const NAME_PAYLOADS = payloadsIn(NAME_ROUNDS[0] ?? []);

const payloadUserEmail = (index: number) => `payload-${index}@example.com`;

/** Editors named with the first round's names. */
export const PAYLOAD_USERS: TestAccount[] = (NAME_ROUNDS[0] ?? []).map((name, i) => ({
  email: payloadUserEmail(i),
  name,
  role: "editor",
}));

/** Renames the payload editors to a round's names (a test's shortcut past the account form, which refuses none of them). */
export async function renamePayloadUsers(db: Kysely<Database>, names: readonly string[]): Promise<void> {
  for (const [i, name] of names.entries()) {
    await sql`update "user" set name = ${name} where email = ${payloadUserEmail(i)}`.execute(db);
  }
}

/** The payloads a round's names hold. */
export function payloadsIn(names: readonly string[]): Payload[] {
  return fitting(100).filter((payload) => names.some((name) => name.includes(payload.text)));
}

/** Uploads small images with payload alt texts (all of them, 500 characters each) and file names. */
export async function uploadPayloadImages(base: string, cookie: string): Promise<void> {
  const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
  const alts = packed(500);
  for (const [i, alt] of alts.entries()) {
    // A quote or line break would end the multipart header the name travels in.
    const filename = `${PAYLOADS[i]?.text.replace(/["\\\p{Cc}]/gu, "") ?? "x"}.png`;
    // A NUL is refused wherever a request is read (server/validation.ts): the alt texts go without it.
    const { status, json } = await upload(base, png, filename, { cookie }, { alt: alt.replaceAll("\u0000", "") });
    if (status !== 201) throw new Error(`Uploading ${filename}: ${status} ${JSON.stringify(json)}`);
  }
}

/** A text compared as the page shows it: without whitespace (lines become list items) and NULs (dropped by HTML). */
const squeezed = (text: string) => text.replace(/[\s\p{Cc}]/gu, "");

/**
 * The indexes of the payloads the page does not show as text (outside scripts and
 * styles): a payload shown verbatim was escaped, not parsed.
 */
export async function missingPayloads(page: Page, payloads: readonly Payload[]): Promise<number[]> {
  const shown = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) =>
        node.parentElement?.closest("script, style, noscript") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    const parts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) parts.push(node.nodeValue ?? "");
    return parts.join("");
  });
  const text = squeezed(shown);
  return payloads.filter((payload) => !text.includes(squeezed(payload.text))).map((payload) => payload.index);
}

const ATOM = "http://www.w3.org/2005/Atom";

/**
 * /feed.xml parsed as XML in the browser: well-formed, nothing but Atom elements (a
 * payload parsed as markup would add an element of its own), and the payloads in its
 * titles as text.
 */
export async function checkFeed(page: Page, base: string): Promise<void> {
  const response = await fetch(`${base}/feed.xml`);
  expect(response.status).toBe(200);
  const xml = await response.text();
  await page.goto(`${base}/robots.txt`);
  const parsed = await page.evaluate(
    ({ xml, atom }) => {
      const doc = new DOMParser().parseFromString(xml, "application/xml");
      const errors = [...doc.getElementsByTagName("parsererror")].map((error) => error.textContent ?? "");
      const foreign = [...doc.getElementsByTagName("*")]
        .filter((element) => element.namespaceURI !== atom)
        .map((element) => `${element.namespaceURI} ${element.localName}`);
      const titles = [...doc.getElementsByTagNameNS(atom, "title")].map((title) => title.textContent ?? "");
      return { errors, foreign, titles };
    },
    { xml, atom: ATOM },
  );
  expect(parsed.errors, "the feed parses as XML").toEqual([]);
  expect(parsed.foreign, "elements of the feed outside Atom").toEqual([]);
  const titles = new Set(parsed.titles.map(squeezed));
  const shown = PAYLOADS.filter((payload) => titles.has(squeezed(payload.text)));
  // The feed holds the newest 100 entries: tips and resources hold a payload each.
  expect(shown.length, "payload titles in the feed").toBeGreaterThanOrEqual(50);
}

const ORIGIN = "https://bastion.example";

function email(input: { title: string; summary: string; url: string; imageUrl?: string | null; postType: string }) {
  return renderNotificationEmail({
    siteName: "Bastion",
    publicOrigin: ORIGIN,
    unsubscribeUrl: `${ORIGIN}/newsletter/unsubscribe?token=t`,
    ...input,
  });
}

/**
 * The newsletter notification email: rendered for each payload (title, summary, an
 * http(s) link carrying it, and a bad-scheme image that must be left out), for the
 * notifications the seeded content scheduled, and with each bad-scheme link (refused),
 * then opened in the browser with the trap installed.
 */
export async function checkEmails(page: Page, trapped: Trapped, db: Kysely<Database>): Promise<void> {
  const emails: { label: string; email: NotificationEmail; title?: string }[] = [];
  for (const payload of PAYLOADS) {
    const imageUrl = payload.url ? payload.text : httpVariant(payload);
    const rendered = email({
      postType: "tip",
      title: payload.text,
      summary: payload.text,
      url: httpVariant(payload),
      imageUrl,
    });
    emails.push({ label: `payload ${payload.index}`, email: rendered, title: payload.text });
  }
  const rows = await db.selectFrom("notifications").selectAll().execute();
  // Every tip, resource and chapter the seed published scheduled one.
  expect(rows.length).toBeGreaterThanOrEqual(PAYLOADS.length * 2);
  for (const row of rows) {
    const { title, summary, url, image_url: imageUrl, item_type: postType } = row;
    emails.push({ label: `notification ${row.id}`, email: email({ postType, title, summary, url, imageUrl }) });
  }

  const refused: string[] = [];
  for (const payload of PAYLOADS.filter((candidate) => candidate.url)) {
    const outcome = (() => {
      try {
        return email({ postType: "tip", title: "x", summary: "y", url: payload.text });
      } catch (error) {
        if (error instanceof UnsafeLinkError) return undefined;
        throw error;
      }
    })();
    if (outcome) emails.push({ label: `link ${payload.index}`, email: outcome });
    else refused.push(payload.text);
  }
  expect(refused.length, "bad-scheme links refused by the email").toBeGreaterThanOrEqual(15);

  // An empty page of its own first, so the trap is defined (init scripts run on navigation);
  // setContent then rewrites that document, keeping its window and so the trap.
  await page.route(`${ORIGIN}/email`, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html>" }));
  await page.route("https://xss.example/**", (route) => route.fulfill({ status: 404, body: "" }));
  await page.goto(`${ORIGIN}/email`);
  // Twenty emails to a document: their bodies parse the same one after another, and one
  // setContent each would take most of the test's time.
  const problems: string[] = [];
  for (let start = 0; start < emails.length; start += 20) {
    const batch = emails.slice(start, start + 20);
    await page.setContent(batch.map(({ email: rendered }) => rendered.html).join("\n"), { waitUntil: "load" });
    const label = batch.map((item) => item.label).join(", ");
    problems.push(...(await problemsOf(page, trapped)).map((problem) => `${label}: ${problem}`));
    const headings = await page.locator("h1").evaluateAll((found) => found.map((h1) => h1.textContent ?? ""));
    expect(headings.length, label).toBe(batch.length);
    batch.forEach(({ title }, i) => {
      if (title !== undefined && squeezed(headings[i] ?? "") !== squeezed(title)) {
        problems.push(`${batch[i]?.label}: heading ${JSON.stringify(headings[i])}`);
      }
    });
  }
  expect(problems).toEqual([]);
}
