import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { DialectName } from "../db/connection.ts";
import { type Database, TIP_CATEGORIES } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { ABOUT_CONTENT_DEFAULTS, type AboutContentKey } from "./about.ts";
import { createSnapshotCache } from "./cache.ts";
import { isSafeLink } from "./fields.ts";
import { atEveryNewYear } from "./new-year.ts";
import { getSiteSettings } from "./site-settings.ts";
import {
  type AboutPage,
  type ChapterPage,
  type ChapterSummary,
  type HomeButton,
  type HomeContent,
  PUBLIC_RESOURCE_CATEGORIES,
  type PublishedContent,
  type ResourceCard,
  type ResourcesPage,
  type TipCategoryBlock,
} from "./types.ts";

/** The PostgreSQL channel on which every content write is announced to all instances. */
export const CONTENT_CHANNEL = "bastion_content";
const LISTENER_APPLICATION_NAME = "bastion-content-listener";

export interface LivePublishedContent extends PublishedContent {
  /**
   * Forgets the cached snapshots after a content write, here and (PostgreSQL) in every
   * other instance. The content services take it as their onChange hook.
   */
  invalidate(): Promise<void>;
  /** Resolves once this instance listens for other instances' writes (at once on SQLite). */
  ready(): Promise<void>;
  /** Number of snapshot loads so far, i.e. reads that went to the database. */
  loads(): number;
  close(): Promise<void>;
}

export interface PublishedContentOptions {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The PostgreSQL URL, for the dedicated LISTEN connection; required on PostgreSQL. */
  databaseUrl?: string;
  logger: Logger;
  /**
   * How often the LISTEN connection is checked with a query, which must be answered
   * within as long (default 5 s; tests shorten it). See listenForChanges.
   */
  listenerCheckMs?: number;
  /**
   * How long after a failed notification it is sent again (default 1 s, doubling up to
   * 30 s while it keeps failing; tests shorten it). See announceChanges.
   */
  notifyRetryMs?: number;
}

interface ChapterIndex {
  chapters: ChapterSummary[];
  /** Current slug → chapter; former slug → current slug (published chapters only). */
  bySlug: Map<string, ChapterSummary>;
  redirects: Map<string, string>;
}

export function createPublishedContent(options: PublishedContentOptions): LivePublishedContent {
  const { db, dialect, logger } = options;
  const cache = createSnapshotCache();
  const instanceId = randomUUID();

  let listener: ContentListener | undefined;
  if (dialect === "postgres") {
    if (!options.databaseUrl) throw new Error("createPublishedContent needs databaseUrl on PostgreSQL");
    cache.setBypass(true);
    listener = listenForChanges({
      url: options.databaseUrl,
      logger,
      checkMs: options.listenerCheckMs ?? 5000,
      onNotify: (payload) => {
        if (payload !== instanceId) cache.invalidate();
      },
      onConnected: () => cache.setBypass(false),
      onDisconnected: () => cache.setBypass(true),
    });
  }

  // Public pages show the current year: cached ones are rendered again when it turns.
  const stopNewYear = atEveryNewYear(() => cache.invalidate());

  const announcer =
    dialect === "postgres"
      ? announceChanges({ db, instanceId, logger, retryMs: options.notifyRetryMs ?? 1000 })
      : undefined;

  const chapterIndex = () => cache.get("chapter-index", () => loadChapterIndex(db));

  return {
    home: () => cache.get("home", () => loadHome(db)),
    chapters: async () => (await chapterIndex()).chapters,
    async chapter(slug) {
      const index = await chapterIndex();
      const summary = index.bySlug.get(slug);
      if (summary) {
        // The page is built from the index of the generation it is kept in: the one read
        // above may predate a write that came in meanwhile (a new title, a neighbour
        // unpublished), and the page would keep it until the next write.
        const page = await cache.get(`chapter:${summary.id}`, async () =>
          loadChapterPage(db, await chapterIndex(), summary.id),
        );
        return page ? ({ kind: "chapter", page } as const) : { kind: "missing" };
      }
      const target = index.redirects.get(slug);
      return target ? { kind: "redirect", slug: target } : { kind: "missing" };
    },
    tips: () => cache.get("tips", () => loadTips(db)),
    resources: () => cache.get("resources", () => loadResources(db)),
    about: () => cache.get("about", () => loadAbout(db)),
    version: () => cache.version(),
    async invalidate() {
      cache.invalidate();
      await announcer?.announce();
    },
    ready: () => listener?.ready ?? Promise.resolve(),
    loads: () => cache.loads(),
    async close() {
      stopNewYear();
      announcer?.stop();
      await listener?.close();
    },
  };
}

async function loadHome(db: Kysely<Database>): Promise<HomeContent> {
  const rows = await db.selectFrom("home_page_content").selectAll().orderBy("display_order").execute();
  const entries = new Map(rows.map((row) => [row.section_key, row]));
  // A text cleared in the editor is no text: the page then shows its default (the site's
  // name as the headline, the site's description) rather than an empty heading.
  const text = (key: string) => {
    const row = entries.get(key);
    return row?.is_visible && row.content_value.trim() !== "" ? row.content_value : null;
  };
  const button = (key: string, fallback: string): HomeButton | null => {
    const row = entries.get(key);
    if (!row?.is_visible) return null;
    const link = typeof row.metadata?.link === "string" ? row.metadata.link.trim() : "";
    return { text: row.content_value, link: link && isSafeLink(link) ? link : fallback };
  };
  const newsletter = entries.get("newsletter_section_visible");
  return {
    headline: text("hero_headline"),
    tagline: text("hero_tagline"),
    description: text("hero_description"),
    primaryButton: button("button_primary_text", "/projects"),
    secondaryButton: button("button_secondary_text", "/blog"),
    newsletterVisible: newsletter?.content_value.trim().toLowerCase() !== "false",
  };
}

async function loadChapterIndex(db: Kysely<Database>): Promise<ChapterIndex> {
  const rows = await db
    .selectFrom("chapters")
    .select(["id", "slug", "title", "number"])
    .where("published", "=", true)
    .orderBy("order_index")
    .orderBy("number")
    .orderBy("id")
    .execute();
  const chapters = rows.map((row) => ({ id: row.id, slug: row.slug, title: row.title, number: row.number }));
  const former = await db
    .selectFrom("chapter_slug_redirects as r")
    .innerJoin("chapters as c", "c.id", "r.chapter_id")
    .select(["r.slug as from", "c.slug as to"])
    .where("c.published", "=", true)
    .execute();
  return {
    chapters,
    bySlug: new Map(chapters.map((chapter) => [chapter.slug, chapter])),
    redirects: new Map(former.map((row) => [row.from, row.to])),
  };
}

/** A chapter's sections as the reader shows them, in their order (the draft preview reads them the same way). */
export function readerSections(db: Kysely<Database>, chapterId: string) {
  return db
    .selectFrom("chapter_sections")
    .select(["id", "type", "content", "caption", "language", "alt"])
    .where("chapter_id", "=", chapterId)
    .orderBy("order_index")
    .orderBy("id")
    .execute();
}

async function loadChapterPage(db: Kysely<Database>, index: ChapterIndex, id: string): Promise<ChapterPage | null> {
  const position = index.chapters.findIndex((candidate) => candidate.id === id);
  const summary = index.chapters[position];
  if (!summary) return null;
  const chapter = await db
    .selectFrom("chapters")
    .select(["updated_at", "published_at", "published"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!chapter?.published) return null;
  const sections = await readerSections(db, id);
  return {
    chapter: { ...summary, updatedAt: chapter.updated_at, publishedAt: chapter.published_at },
    sections,
    previous: index.chapters[position - 1] ?? null,
    next: index.chapters[position + 1] ?? null,
  };
}

async function loadTips(db: Kysely<Database>): Promise<TipCategoryBlock[]> {
  const rows = await db
    .selectFrom("tips_resources")
    .select(["id", "category", "title", "description", "url", "type", "created_at"])
    .orderBy("order_index")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return TIP_CATEGORIES.map((category) => ({
    category,
    tips: rows
      .filter((row) => row.category === category)
      .map((row) => ({
        id: row.id,
        title: row.title,
        description: row.description,
        url: row.url || null,
        type: row.type,
        createdAt: row.created_at,
      })),
  }));
}

async function loadResources(db: Kysely<Database>): Promise<ResourcesPage> {
  const rows = await db
    .selectFrom("resources")
    .select(["id", "name", "description", "url", "category", "featured", "created_at"])
    .orderBy("order_index")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const cards: ResourceCard[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    category: row.category,
    featured: row.featured,
    createdAt: row.created_at,
  }));
  return {
    featured: cards.filter((card) => card.featured),
    categories: PUBLIC_RESOURCE_CATEGORIES.map((category) => ({
      category,
      resources: cards.filter((card) => card.category === category),
    })).filter((group) => group.resources.length > 0),
  };
}

async function loadAbout(db: Kysely<Database>): Promise<AboutPage> {
  const rows = await db.selectFrom("site_content").select(["key", "value"]).execute();
  const content = new Map(rows.map((row) => [row.key, row.value]));
  const value = (key: AboutContentKey) => content.get(key) ?? ABOUT_CONTENT_DEFAULTS[key];
  const certifications = await db
    .selectFrom("certifications")
    .select(["id", "name", "organization", "description", "date", "status"])
    .orderBy("order_index")
    .orderBy("id")
    .execute();
  const skills = await db
    .selectFrom("skills")
    .select(["id", "name", "level", "category"])
    .orderBy("order_index")
    .orderBy("id")
    .execute();
  const timeline = await db
    .selectFrom("timeline_events")
    .select(["id", "date", "title", "description", "category"])
    .orderBy("order_index")
    .orderBy("id")
    .execute();
  const settings = await getSiteSettings(db);
  return {
    name: value("about_name"),
    title: value("about_title"),
    bio: [value("about_bio_1"), value("about_bio_2"), value("about_bio_3")],
    mission: value("about_mission"),
    certifications,
    skills,
    timeline,
    linkedinUrl: settings.linkedin_url.trim() || null,
    resumeUrl: settings.resume_url.trim() || null,
  };
}

interface ContentListener {
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to other queries).
 * It reconnects with backoff after any error; the caller serves uncached meanwhile,
 * and forgets its snapshots on reconnection since notifications may have been missed.
 *
 * A connection that only listens sends nothing, so one the network dropped without a
 * word to this end (a NAT's or load balancer's idle timeout, a database host restarted)
 * would look alive until TCP keepalive gives up, over two hours on Linux by default,
 * while every other instance's write went unnoticed. A query every `checkMs` that must
 * be answered within as long finds such a connection (and keeps idle timeouts away).
 */
function listenForChanges(options: {
  url: string;
  logger: Logger;
  checkMs: number;
  onNotify(payload: string | undefined): void;
  onConnected(): void;
  onDisconnected(): void;
}): ContentListener {
  let client: pg.Client | undefined;
  let closed = false;
  let retryDelay = 100;
  let timer: NodeJS.Timeout | undefined;
  let check: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  function drop(lost: pg.Client, error?: unknown) {
    if (client !== lost) return;
    client = undefined;
    clearTimeout(check);
    options.onDisconnected();
    void hangUp(lost, options.checkMs);
    if (closed) return;
    if (error) options.logger.warn({ err: error }, "Content change listener lost its connection; reconnecting");
    timer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  }

  function watch(current: pg.Client) {
    check = setTimeout(() => {
      let silence: NodeJS.Timeout | undefined;
      const unanswered = new Promise<never>((_resolve, reject) => {
        silence = setTimeout(
          () => reject(new Error(`The database did not answer a check within ${options.checkMs} ms`)),
          options.checkMs,
        );
      });
      Promise.race([current.query("select 1"), unanswered]).then(
        () => {
          clearTimeout(silence);
          if (client === current) watch(current);
        },
        (error: unknown) => {
          clearTimeout(silence);
          drop(current, error);
        },
      );
    }, options.checkMs);
  }

  async function connect() {
    timer = undefined;
    if (closed) return;
    const next = new pg.Client({
      connectionString: options.url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    });
    client = next;
    next.on("error", (error) => drop(next, error));
    next.on("end", () => drop(next, new Error("connection ended")));
    next.on("notification", (message) => {
      if (message.channel === CONTENT_CHANNEL) options.onNotify(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CONTENT_CHANNEL}`);
    } catch (error) {
      drop(next, error);
      return;
    }
    if (client !== next) return;
    retryDelay = 100;
    options.onConnected();
    markReady();
    watch(next);
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(check);
      const current = client;
      client = undefined;
      if (current) await hangUp(current, options.checkMs);
    },
  };
}

/**
 * Tells the other instances (PostgreSQL) that this one changed the content. The write
 * has committed when this runs, so a notification that fails (the pool's connection
 * dropped between the two statements, the database restarting) is sent again, after
 * `retryMs`, doubling up to 30 s, until it goes through: otherwise the other instances
 * would show the old content until the next write. Failures while one is pending fold
 * into it: one notification tells of every change before it.
 */
function announceChanges(options: { db: Kysely<Database>; instanceId: string; logger: Logger; retryMs: number }): {
  announce(): Promise<void>;
  stop(): void;
} {
  const { db, instanceId, logger } = options;
  let retry: NodeJS.Timeout | undefined;
  let delay = options.retryMs;
  let stopped = false;

  async function announce(): Promise<void> {
    clearTimeout(retry);
    retry = undefined;
    try {
      await sql`select pg_notify(${CONTENT_CHANNEL}, ${instanceId})`.execute(db);
      delay = options.retryMs;
    } catch (error) {
      if (stopped || retry) return;
      logger.error(
        { err: error, retryInMs: delay },
        "Could not notify the other instances of a content change; trying again",
      );
      retry = setTimeout(() => void announce(), delay);
      delay = Math.min(delay * 2, 30_000);
    }
  }

  return {
    announce,
    stop() {
      stopped = true;
      clearTimeout(retry);
    },
  };
}

/**
 * Ends a connection, saying goodbye to the server; one that went silent would keep
 * end() waiting for the server's side of the goodbye forever (and a shutdown with it),
 * so after `waitMs` its socket is closed without it.
 */
function hangUp(connection: pg.Client, waitMs: number): Promise<void> {
  const cut = setTimeout(() => connection.connection.stream.destroy(), waitMs);
  return connection
    .end()
    .catch(() => {})
    .finally(() => clearTimeout(cut));
}
