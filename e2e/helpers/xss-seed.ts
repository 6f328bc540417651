import type { Kysely } from "kysely";
import { getAboutContentForEditor, updateAboutContent } from "../../server/content/about.ts";
import { type ChapterRecord, createChapter } from "../../server/content/chapters.ts";
import { getHomeContentForEditor, updateHomeContent } from "../../server/content/home.ts";
import { createCertification, createSkill, createTimelineEvent } from "../../server/content/profile.ts";
import { createResource } from "../../server/content/resources.ts";
import type { SectionType } from "../../server/content/section-input.ts";
import { createSection } from "../../server/content/sections.ts";
import { getSiteSettingsForEditor, updateSiteSettings } from "../../server/content/site-settings.ts";
import type { ContentStore } from "../../server/content/store.ts";
import { createTip } from "../../server/content/tips.ts";
import { type Database, RESOURCE_CATEGORIES, TIMELINE_CATEGORIES, TIP_CATEGORIES } from "../../server/db/schema.ts";
import { AppError } from "../../server/errors.ts";
import { cycle, fitting, httpVariant, PAYLOADS, packed, pathVariant, URL_PAYLOADS } from "./xss-corpus.ts";

/**
 * Writes the XSS corpus (xss-corpus.ts) into every text field an editor can write,
 * through the content services, as the admin's actions do: one tip, resource,
 * certification, skill and timeline event per payload, one section of each type per
 * payload, chapter titles, home and about texts packed with every payload, the link
 * fields given each payload's http(s) variant and image sections its same-site path.
 */

/** A store writing as the system; the server starts afterwards, so no reader needs telling. */
export const systemStore = (db: Kysely<Database>): ContentStore => ({ db, actorId: null, onChange: () => {} });

/** The chapters written, and which section types each holds. */
export interface SeededChapters {
  all: ChapterRecord[];
  /** The chapter of each section type. */
  byType: Record<SectionType, ChapterRecord>;
}

const SECTION_TYPES_SEEDED: SectionType[] = ["text", "heading", "tip", "list", "code", "image"];
/** Code sections alternate between highlighted languages (Shiki's markup) and the payload as a language. */
const LANGUAGES = ["html", "javascript", "markdown", "xml", "tsx"];

export async function seedPayloads(db: Kysely<Database>): Promise<SeededChapters> {
  const store = systemStore(db);

  // Chapter titles: every payload in some title; the first chapters also hold the sections.
  const titles = packed(200, " ");
  const all: ChapterRecord[] = [];
  for (const title of titles) all.push(await createChapter(store, { title, published: true }));
  const byType = Object.fromEntries(SECTION_TYPES_SEEDED.map((type, i) => [type, cycle(all, i)])) as Record<
    SectionType,
    ChapterRecord
  >;
  for (const payload of PAYLOADS) {
    const { text } = payload;
    for (const type of ["text", "heading", "tip", "list"] as const) {
      await createSection(store, { chapterId: byType[type].id, type, content: text });
    }
    const shortLanguage = text.trim().length <= 50 && payload.index % 2 === 1;
    await createSection(store, {
      chapterId: byType.code.id,
      type: "code",
      content: text,
      caption: text,
      language: shortLanguage ? text : cycle(LANGUAGES, payload.index),
    });
    await createSection(store, {
      chapterId: byType.image.id,
      type: "image",
      content: pathVariant(payload),
      caption: text,
      alt: text,
    });
  }

  for (const payload of PAYLOADS) {
    const { text, index } = payload;
    await createTip(store, {
      title: text,
      description: text,
      url: httpVariant(payload),
      category: cycle(TIP_CATEGORIES, index),
      type: index % 5 === 4 ? "coming-soon" : "external",
    });
    await createResource(store, {
      name: text,
      description: text,
      url: httpVariant(payload),
      ...resourcePlace(index),
    });
    await createCertification(store, {
      name: text,
      organization: text,
      description: text,
      date: text,
      status: index % 2 === 0 ? "completed" : "planned",
    });
    await createSkill(store, { name: text, category: text, level: (index % 21) * 5 });
  }
  const shortDates = fitting(50);
  for (const payload of PAYLOADS) {
    await createTimelineEvent(store, {
      date: cycle(shortDates, payload.index).text,
      title: payload.text,
      description: payload.text,
      category: cycle(TIMELINE_CATEGORIES, payload.index),
    });
  }

  await seedPageTexts(store);
  return { all, byType };
}

/** Each payload's resource category, and whether it is featured (Services, an admin-only category, too). */
export function resourcePlace(index: number): { category: (typeof RESOURCE_CATEGORIES)[number]; featured: boolean } {
  return { category: cycle(RESOURCE_CATEGORIES, index), featured: index % 7 === 0 };
}

/** Whether the public Resources page lists the payload's resource (it leaves the Services category out). */
export function publicResource(index: number): boolean {
  const { category, featured } = resourcePlace(index);
  return featured || category !== "Services";
}

/** Home, About and settings: a few fields each, packed so every payload is in one of them. */
async function seedPageTexts(store: ContentStore): Promise<void> {
  const db = store.db;
  const long = packed(5000);
  const home = await getHomeContentForEditor(db);
  const buttons = fitting(60);
  await updateHomeContent(store, {
    hero_headline: { revision: home.hero_headline.revision, value: cycle(long, 0) },
    hero_tagline: { revision: home.hero_tagline.revision, value: cycle(long, 1) },
    hero_description: { revision: home.hero_description.revision, value: long.join("\n") },
    button_primary_text: {
      revision: home.button_primary_text.revision,
      value: cycle(buttons, 0).text,
      link: httpVariant(cycle(buttons, 0)),
    },
    button_secondary_text: {
      revision: home.button_secondary_text.revision,
      value: cycle(buttons, 1).text,
      link: httpVariant(cycle(buttons, 1)),
    },
  });

  const about = await getAboutContentForEditor(db);
  const aboutTexts = packed(5000);
  await updateAboutContent(store, {
    about_name: { revision: about.about_name.revision, value: cycle(packed(200, " "), 0) },
    about_title: { revision: about.about_title.revision, value: cycle(aboutTexts, 0) },
    about_bio_1: { revision: about.about_bio_1.revision, value: cycle(aboutTexts, 0) },
    about_bio_2: { revision: about.about_bio_2.revision, value: cycle(aboutTexts, 1) },
    about_bio_3: { revision: about.about_bio_3.revision, value: cycle(aboutTexts, 2) },
    about_mission: { revision: about.about_mission.revision, value: cycle(aboutTexts, 3) },
  });

  const settings = await getSiteSettingsForEditor(db);
  await updateSiteSettings(store, {
    linkedin_url: { revision: settings.linkedin_url.revision, value: httpVariant(cycle(PAYLOADS, 0)) },
    resume_url: { revision: settings.resume_url.revision, value: httpVariant(cycle(PAYLOADS, 5)) },
  });
}

/** A URL field and how to write one value into it through its service. */
interface UrlField {
  name: string;
  write(store: ContentStore, value: string): Promise<unknown>;
}

function urlFields(chapterId: string): UrlField[] {
  return [
    {
      name: "home primary button link",
      write: async (store, link) => {
        const { button_primary_text: entry } = await getHomeContentForEditor(store.db);
        return updateHomeContent(store, { button_primary_text: { revision: entry.revision, value: "Go", link } });
      },
    },
    {
      name: "home secondary button link",
      write: async (store, link) => {
        const { button_secondary_text: entry } = await getHomeContentForEditor(store.db);
        return updateHomeContent(store, { button_secondary_text: { revision: entry.revision, value: "Go", link } });
      },
    },
    { name: "tip url", write: (store, url) => createTip(store, { title: "Refused tip", url }) },
    { name: "resource url", write: (store, url) => createResource(store, { name: "Refused resource", url }) },
    {
      name: "image section url",
      write: (store, content) => createSection(store, { chapterId, type: "image", content, alt: "x" }),
    },
    {
      name: "linkedin url",
      write: async (store, value) => {
        const { linkedin_url: entry } = await getSiteSettingsForEditor(store.db);
        return updateSiteSettings(store, { linkedin_url: { revision: entry.revision, value } });
      },
    },
    {
      name: "resume url",
      write: async (store, value) => {
        const { resume_url: entry } = await getSiteSettingsForEditor(store.db);
        return updateSiteSettings(store, { resume_url: { revision: entry.revision, value } });
      },
    },
  ];
}

/**
 * Tries every non-http(s) payload in every URL field through its service; returns the
 * writes that were not refused with a validation error (400), and how many were tried.
 */
export async function tryBadSchemes(
  store: ContentStore,
  chapterId: string,
): Promise<{ tried: number; accepted: string[] }> {
  const accepted: string[] = [];
  let tried = 0;
  for (const field of urlFields(chapterId)) {
    for (const payload of URL_PAYLOADS) {
      tried++;
      const outcome = await field.write(store, payload.text).then(
        () => "stored",
        (error: unknown) => (error instanceof AppError && error.status === 400 ? "refused" : String(error)),
      );
      if (outcome !== "refused") accepted.push(`${field.name} <- ${JSON.stringify(payload.text)}: ${outcome}`);
    }
  }
  return { tried, accepted };
}
