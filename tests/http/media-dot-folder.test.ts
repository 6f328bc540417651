import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEDIA_BUCKET } from "../../server/media/rules.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { png } from "../media/images.ts";
import { header, request } from "./client.ts";
import { upload } from "./media-client.ts";

/**
 * Local media under a DATA_DIR inside a folder whose name starts with a dot, as
 * ~/.bastion would be: the images are served, since only the file's own name is judged
 * as a dot-file, not the folders above it.
 */

const EDITOR = { email: "dot.folder@example.com", name: "Dot Folder", role: "editor" as const };

describe.each(TEST_DIALECTS)("local media under a dot-folder on %s", (dialect) => {
  let site: SiteWithAccounts;
  let parent: string;
  let dataDir: string;
  let base: string;

  beforeAll(async () => {
    parent = mkdtempSync(path.join(tmpdir(), "bastion-dot-folder-"));
    dataDir = path.join(parent, ".data", "bastion");
    site = await startSiteWithAccounts({ dialect, accounts: [EDITOR], server: { env: { DATA_DIR: dataDir } } });
    base = site.server.url;
  });

  afterAll(async () => {
    await site?.stop();
    if (parent) rmSync(parent, { recursive: true, force: true });
  });

  it("serves an uploaded image (200), not 403", async () => {
    const editor = await signIn(base, EDITOR.email);
    const answer = await upload(base, await png(120, 80), "photo.png", { cookie: editor });
    expect(answer.status).toBe(201);
    // The file really is under the dot-folder.
    const name = answer.json.url.split("/").pop() as string;
    expect(readdirSync(path.join(dataDir, "media", MEDIA_BUCKET))).toContain(name);

    const served = await request(`${base}${answer.json.url}`);
    expect(served.status).toBe(200);
    expect(header(served, "content-type")).toBe("image/png");
    expect(served.body.length).toBe(answer.json.bytes);
  });
});
