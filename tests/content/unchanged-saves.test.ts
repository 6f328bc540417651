import { describe, expect, it } from "vitest";
import { getSiteSettingsForEditor, updateSiteSettings } from "../../server/content/site-settings.ts";
import { createTip, listTips, updateTip } from "../../server/content/tips.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { auditOf, useContentFixture } from "./fixture.ts";

/**
 * A save that changes nothing (a dialog opened and saved as it was, a form whose other
 * entries were edited) writes nothing: no new revision, no audit row. A new revision
 * would refuse the real change of another editor who opened the same record before.
 */
describe.each(TEST_DIALECTS)("saves that change nothing on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;

  it("a tip saved unchanged keeps its revision, is not audited, and another editor's change still saves", async () => {
    const tip = await createTip(f.store, { title: "Scan tuning", description: "Tune scans" });
    const form = { revision: tip.revision, title: tip.title, description: tip.description, url: "" };
    // Editor B opens the dialog and saves it as it was.
    expect(await updateTip(f.store, tip.id, form)).toMatchObject({ revision: tip.revision });
    expect(await auditOf(db(), { entityId: tip.id, action: "tip.updated" })).toHaveLength(0);
    // Editor A, who opened it at the same revision, changes the title.
    const changed = await updateTip(f.store, tip.id, { ...form, title: "Scan tuning, revised" });
    expect(changed).toMatchObject({ title: "Scan tuning, revised", revision: tip.revision + 1 });
    expect((await listTips(db())).find((item) => item.id === tip.id)?.title).toBe("Scan tuning, revised");
  });

  it("settings saved together: only the entries whose value changed get a new revision", async () => {
    const opened = await getSiteSettingsForEditor(db());
    // Editor B changes the résumé link; the LinkedIn link goes along unchanged.
    const afterB = await updateSiteSettings(f.store, {
      linkedin_url: opened.linkedin_url,
      resume_url: { revision: opened.resume_url.revision, value: "https://example.com/resume.pdf" },
    });
    expect(afterB.linkedin_url.revision).toBe(opened.linkedin_url.revision);
    const audit = await auditOf(db(), { action: "site-settings.updated" });
    expect(audit.at(-1)?.details).toEqual({ saved: ["resume_url"] });
    // Editor A, who opened the page before, changes the LinkedIn link and keeps B's résumé link.
    const afterA = await updateSiteSettings(f.store, {
      linkedin_url: { revision: opened.linkedin_url.revision, value: "https://www.linkedin.com/in/someone" },
      resume_url: { revision: afterB.resume_url.revision, value: "https://example.com/resume.pdf" },
    });
    expect(afterA.linkedin_url.value).toBe("https://www.linkedin.com/in/someone");
  });
});
