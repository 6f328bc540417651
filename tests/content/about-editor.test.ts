import { describe, expect, it } from "vitest";
import { getAboutContentForEditor, updateAboutContent } from "../../server/content/about.ts";
import { aboutContentEntries } from "../../server/content/about-input.ts";
import { siteSettingEntry } from "../../server/content/site-settings-input.ts";
import { Invalid } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { countAudit, refusal, useContentFixture } from "./fixture.ts";

/**
 * The rules the Biography & Content and Site Settings forms share with the services:
 * the About page's name is its main heading and may not be emptied; every other text
 * may be left blank, which a form sends as a missing value.
 */

describe.each(TEST_DIALECTS)("the About editor's rules on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;

  it("refuses an empty name, saving nothing; blank texts are saved empty and the About page leaves them out", async () => {
    const before = await getAboutContentForEditor(db());
    const auditBefore = await countAudit(db());
    const error = await refusal(
      updateAboutContent(f.store, {
        about_name: { revision: before.about_name.revision, value: "   " },
        about_bio_3: { revision: before.about_bio_3.revision, value: "" },
      }),
    );
    expect(error).toBeInstanceOf(Invalid);
    expect(error.fields).toEqual({ "about_name.value": "Name is required" });
    expect(await getAboutContentForEditor(db())).toEqual(before);
    expect(await countAudit(db())).toBe(auditBefore);

    const saved = await updateAboutContent(f.store, {
      about_name: { revision: before.about_name.revision, value: " Ada Lovelace " },
      about_bio_3: { revision: before.about_bio_3.revision, value: "" },
    });
    expect(saved.about_name.value).toBe("Ada Lovelace");
    expect(saved.about_bio_3).toEqual({ value: "", revision: before.about_bio_3.revision + 1 });
    const about = await f.content.about();
    expect(about.name).toBe("Ada Lovelace");
    expect(about.bio[2]).toBe("");
  });
});

describe("the forms' reading of blank fields", () => {
  it("reads a blank text or link as empty, and a blank name as missing", () => {
    expect(aboutContentEntries.about_mission.parse({ revision: 1 })).toEqual({ revision: 1, value: "" });
    expect(aboutContentEntries.about_name.safeParse({ revision: 1 }).error?.issues[0]?.message).toBe(
      "Name is required",
    );
    expect(siteSettingEntry.parse({ revision: 2 })).toEqual({ revision: 2, value: "" });
    expect(siteSettingEntry.safeParse({ revision: 2, value: "data:text/html,x" }).error?.issues[0]?.message).toBe(
      "Enter a URL starting with http:// or https://",
    );
  });
});
