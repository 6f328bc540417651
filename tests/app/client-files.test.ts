import fs, { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { serveTopLevelClientFiles } from "../../server/http/client-files.ts";

/**
 * The files at the top of the built client folder, served without asking the disk
 * about anything else: express.static (through send) looks a request's path up with
 * fs.stat, which is watched here.
 */

let directory: string;
let server: Server;
let base: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "bastion-client-files-"));
  writeFileSync(path.join(directory, "favicon.ico"), "icon bytes");
  writeFileSync(path.join(directory, "site.webmanifest"), '{"name":"Bastion"}');
  fs.mkdirSync(path.join(directory, "projects"));
  const app = express();
  app.use(serveTopLevelClientFiles(directory));
  app.use((req, res) => {
    res.status(404).type("text/plain").send(`rendered ${req.method} ${req.path}`);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

/** The paths under the client folder that fs.stat was asked about while `run` ran. */
async function statsDuring(run: () => Promise<void>): Promise<string[]> {
  const stat = vi.spyOn(fs, "stat");
  await run();
  return stat.mock.calls.map(([file]) => String(file)).filter((file) => file.startsWith(directory));
}

describe("the client folder's top-level files (serveTopLevelClientFiles)", () => {
  it("serves a file at the top of the folder, cached for an hour", async () => {
    const stats = await statsDuring(async () => {
      const response = await fetch(`${base}/favicon.ico`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
      expect(await response.text()).toBe("icon bytes");
    });
    expect(stats).toEqual([path.join(directory, "favicon.ico")]);
  });

  it("passes a page on without asking the disk, whether or not a folder of its name exists", async () => {
    const stats = await statsDuring(async () => {
      for (const page of ["/about", "/projects", "/projects/first-chapter", "/favicon.ico/x"]) {
        const response = await fetch(`${base}${page}`);
        expect(await response.text()).toBe(`rendered GET ${page}`);
      }
    });
    expect(stats).toEqual([]);
  });

  it("passes other methods on, as express.static does", async () => {
    const response = await fetch(`${base}/site.webmanifest`, { method: "POST" });
    expect(await response.text()).toBe("rendered POST /site.webmanifest");
  });
});
