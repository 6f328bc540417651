import { describe, expect, it } from "vitest";
import { getAboutContentForEditor, updateAboutContent } from "../../server/content/about.ts";
import { getHomeContentForEditor, updateHomeContent } from "../../server/content/home.ts";
import { getSiteSettingsForEditor, updateSiteSettings } from "../../server/content/site-settings.ts";
import { Conflict, Invalid } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { ACTOR_ID, auditOf, countAudit, refusal, staleMessage, useContentFixture } from "./fixture.ts";

const UNSAFE_URLS = [
  "javascript:alert(1)",
  "data:text/html,x",
  "file:///etc/passwd",
  "//evil.example",
  "/\t/evil.example",
];

describe.each(TEST_DIALECTS)("home page, about content and site settings on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;

  it("the Home Page Editor reads every entry with its link and revision", async () => {
    const home = await getHomeContentForEditor(db());
    expect(home.hero_headline).toEqual({ value: "Securing the cloud, one lesson at a time", link: null, revision: 1 });
    expect(home.button_primary_text).toEqual({ value: "Explore Projects", link: "/projects", revision: 1 });
    expect(home.newsletter_section_visible).toEqual({ value: "true", link: null, revision: 1 });
  });

  it("saves the editor's entries together, with an audit row, and the public home page shows them", async () => {
    const home = await getHomeContentForEditor(db());
    const saved = await updateHomeContent(f.store, {
      hero_headline: { revision: home.hero_headline.revision, value: "  Defend well  " },
      button_primary_text: { revision: 1, value: "Start learning", link: "https://example.com/start" },
      button_secondary_text: { revision: 1, value: "Tips", link: "" },
      newsletter_section_visible: { revision: 1, value: "false" },
    });
    expect(saved.hero_headline).toEqual({ value: "Defend well", link: null, revision: 2 });
    expect(saved.button_primary_text).toEqual({
      value: "Start learning",
      link: "https://example.com/start",
      revision: 2,
    });
    expect(saved.button_secondary_text).toEqual({ value: "Tips", link: "", revision: 2 });
    expect(saved.hero_tagline.revision).toBe(1);
    expect(await f.content.home()).toMatchObject({
      headline: "Defend well",
      primaryButton: { text: "Start learning", link: "https://example.com/start" },
      secondaryButton: { text: "Tips", link: "/blog" },
      newsletterVisible: false,
    });
    const audit = await auditOf(db(), { action: "home-page.updated" });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: ACTOR_ID, entity: "home-page" });
    expect(audit[0]?.details).toEqual({
      saved: ["hero_headline", "button_primary_text", "button_secondary_text", "newsletter_section_visible"],
    });
  });

  it("a stale entry refuses the whole save: nothing written, no audit row; a repeated save succeeds", async () => {
    const opened = await getHomeContentForEditor(db());
    await updateHomeContent(f.store, { hero_tagline: { revision: opened.hero_tagline.revision, value: "Theirs" } });
    const auditBefore = await countAudit(db());
    const changesBefore = f.changes();

    const error = await refusal(
      updateHomeContent(f.store, {
        hero_headline: { revision: opened.hero_headline.revision, value: "Mine" },
        hero_tagline: { revision: opened.hero_tagline.revision, value: "Mine too" },
      }),
    );
    expect(error).toBeInstanceOf(Conflict);
    expect(error.message).toBe(staleMessage("home page"));
    const after = await getHomeContentForEditor(db());
    expect(after.hero_headline).toEqual(opened.hero_headline);
    expect(after.hero_tagline.value).toBe("Theirs");
    expect(await countAudit(db())).toBe(auditBefore);
    expect(f.changes()).toBe(changesBefore);

    // The tagline already holds what this save asks for: not a conflict, and nothing to write there.
    const retried = await updateHomeContent(f.store, {
      hero_headline: { revision: opened.hero_headline.revision, value: "Mine" },
      hero_tagline: { revision: opened.hero_tagline.revision, value: "Theirs" },
    });
    expect(retried.hero_headline).toMatchObject({ value: "Mine", revision: opened.hero_headline.revision + 1 });
    expect(retried.hero_tagline.revision).toBe(after.hero_tagline.revision);
    const details = (await auditOf(db(), { action: "home-page.updated" })).map((row) => row.details);
    expect(details).toContainEqual({ saved: ["hero_headline"] });
  });

  it("refuses unsafe button links, unknown entries and a newsletter switch that is not true or false", async () => {
    const home = await getHomeContentForEditor(db());
    for (const link of UNSAFE_URLS) {
      const error = await refusal(
        updateHomeContent(f.store, {
          button_primary_text: { revision: home.button_primary_text.revision, value: "Go", link },
        }),
      );
      expect(error.fields).toEqual({ "button_primary_text.link": "Enter a URL starting with http://, https:// or /" });
    }
    const switchError = await refusal(
      updateHomeContent(f.store, {
        newsletter_section_visible: { revision: home.newsletter_section_visible.revision, value: "maybe" as "true" },
      }),
    );
    expect(Object.keys(switchError.fields ?? {})).toEqual(["newsletter_section_visible.value"]);
    expect(
      await refusal(updateHomeContent(f.store, { hero_unknown: { revision: 1, value: "x" } } as never)),
    ).toBeInstanceOf(Invalid);
    expect(await getHomeContentForEditor(db())).toEqual(home);
  });

  it("an entry missing from the table reads as revision 0 with its default, and is created by its first save", async () => {
    await db().deleteFrom("home_page_content").where("section_key", "=", "hero_description").execute();
    const home = await getHomeContentForEditor(db());
    expect(home.hero_description.revision).toBe(0);
    expect(home.hero_description.value).toMatch(/^Hands-on projects/);
    const saved = await updateHomeContent(f.store, { hero_description: { revision: 0, value: "Recreated" } });
    expect(saved.hero_description).toEqual({ value: "Recreated", link: null, revision: 1 });
    expect(
      (await refusal(updateHomeContent(f.store, { hero_description: { revision: 0, value: "Again" } }))).message,
    ).toBe(staleMessage("home page"));
  });

  it("about content: read with revisions, saved all or nothing, stale saves refused", async () => {
    const about = await getAboutContentForEditor(db());
    expect(about.about_name).toEqual({ value: "Your Name", revision: 1 });
    const saved = await updateAboutContent(f.store, {
      about_name: { revision: 1, value: "Ada Lovelace" },
      about_bio_2: { revision: 1, value: "Second." },
    });
    expect(saved.about_name).toEqual({ value: "Ada Lovelace", revision: 2 });
    expect(await f.content.about()).toMatchObject({
      name: "Ada Lovelace",
      bio: [expect.any(String), "Second.", expect.any(String)],
    });

    const stale = await refusal(
      updateAboutContent(f.store, {
        about_title: { revision: 1, value: "Changed title" },
        about_name: { revision: 1, value: "Grace Hopper" },
      }),
    );
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe(staleMessage("about content"));
    const after = await getAboutContentForEditor(db());
    expect(after.about_title).toEqual(about.about_title);
    expect(after.about_name.value).toBe("Ada Lovelace");
    expect(
      (await updateAboutContent(f.store, { about_name: { revision: 1, value: "Ada Lovelace" } })).about_name,
    ).toEqual({ value: "Ada Lovelace", revision: 2 });
    expect(await auditOf(db(), { action: "about-content.updated" })).toEqual([
      expect.objectContaining({ user_id: ACTOR_ID, details: { saved: ["about_name", "about_bio_2"] } }),
    ]);
    expect(
      await refusal(updateAboutContent(f.store, { about_unknown: { revision: 1, value: "x" } } as never)),
    ).toBeInstanceOf(Invalid);
  });

  it("site settings: http(s) links only (empty unsets), read with revisions, stale saves refused", async () => {
    const settings = await getSiteSettingsForEditor(db());
    expect(settings).toEqual({
      linkedin_url: { value: "https://www.linkedin.com/", revision: 1 },
      resume_url: { value: "", revision: 1 },
    });
    for (const value of [...UNSAFE_URLS, "/resume.pdf", "mailto:me@example.com"]) {
      const error = await refusal(updateSiteSettings(f.store, { resume_url: { revision: 1, value } }));
      expect(error.fields).toEqual({ "resume_url.value": "Enter a URL starting with http:// or https://" });
    }
    const saved = await updateSiteSettings(f.store, {
      linkedin_url: { revision: 1, value: " https://linkedin.com/in/ada " },
      resume_url: { revision: 1, value: "https://ada.example/resume.pdf" },
    });
    expect(saved.linkedin_url).toEqual({ value: "https://linkedin.com/in/ada", revision: 2 });
    expect(await f.content.about()).toMatchObject({
      linkedinUrl: "https://linkedin.com/in/ada",
      resumeUrl: "https://ada.example/resume.pdf",
    });

    const stale = await refusal(
      updateSiteSettings(f.store, {
        linkedin_url: { revision: 2, value: "" },
        resume_url: { revision: 1, value: "" },
      }),
    );
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe(
      "These settings were changed by someone else since you opened them. Reload to see the latest version.",
    );
    expect((await getSiteSettingsForEditor(db())).linkedin_url.value).toBe("https://linkedin.com/in/ada");
    const unset = await updateSiteSettings(f.store, { resume_url: { revision: 2, value: "" } });
    expect(unset.resume_url).toEqual({ value: "", revision: 3 });
    expect((await f.content.about()).resumeUrl).toBeNull();
  });
});
