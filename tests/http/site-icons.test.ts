import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LogLine, type RunningServer, startServer } from "../helpers/server.ts";
import { header, type RawResponse, request } from "./client.ts";

/**
 * The favicon, touch icon and web manifest of public/, linked from every page's head,
 * and the icons browsers ask for unprompted: a missing one is no "Page not found".
 */

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(body: Buffer): string {
  expect(body.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`;
}

/** The request log line of a path, written once its answer is sent. */
function requestLogged(path: string): Promise<LogLine> {
  return server.waitForLog((line) => typeof line.msg === "string" && line.msg.startsWith(`GET ${path} `));
}

function pageNotFoundLogged(path: string): boolean {
  return server.logs().some((line) => line.msg === "Page not found" && line.path === path);
}

describe("site icons", () => {
  it("links the favicon, the SVG icon, the touch icon and the manifest from the page head, each served", async () => {
    const page = await request(`${server.url}/`);
    const head = page.text().split("</head>")[0] ?? "";
    const links = [...head.matchAll(/<link\b[^>]*>/g)]
      .map(([tag]) => ({ rel: tag.match(/\brel="([^"]+)"/)?.[1], href: tag.match(/\bhref="([^"]+)"/)?.[1] }))
      .filter(({ rel }) => rel === "icon" || rel === "apple-touch-icon" || rel === "manifest");
    expect(links).toEqual([
      { rel: "icon", href: "/favicon.ico" },
      { rel: "icon", href: "/icon.svg" },
      { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
      { rel: "manifest", href: "/site.webmanifest" },
    ]);

    const served: Record<string, RawResponse> = {};
    for (const { href } of links) served[href as string] = await request(`${server.url}${href}`);
    for (const response of Object.values(served)) expect(response.status).toBe(200);
    expect(header(served["/favicon.ico"] as RawResponse, "content-type")).toBe("image/vnd.microsoft.icon");
    expect(header(served["/icon.svg"] as RawResponse, "content-type")).toMatch(/^image\/svg\+xml/);
    expect(pngSize((served["/apple-touch-icon.png"] as RawResponse).body)).toBe("180x180");
    expect(header(served["/site.webmanifest"] as RawResponse, "content-type")).toMatch(/^application\/manifest\+json/);
  });

  it("serves every icon the manifest names, at the size it states", async () => {
    const manifest = JSON.parse((await request(`${server.url}/site.webmanifest`)).text()) as {
      name: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest.name).toBe("Bastion");
    for (const icon of manifest.icons) {
      const response = await request(`${server.url}${icon.src}`);
      expect(response.status).toBe(200);
      expect(header(response, "content-type")).toMatch(new RegExp(`^${icon.type.replace("+", "\\+")}`));
      if (icon.type === "image/png") expect(pngSize(response.body)).toBe(icon.sizes);
    }
  });

  it("answers an icon it does not ship with a plain 404, without logging a page not found", async () => {
    for (const path of ["/apple-touch-icon-precomposed.png", "/favicon-32x32.png"]) {
      const logged = requestLogged(path);
      const response = await request(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(header(response, "content-type")).toMatch(/^text\/plain/);
      await logged;
      expect(pageNotFoundLogged(path)).toBe(false);
    }
  });

  it("still logs a missing page as not found", async () => {
    const logged = requestLogged("/favicons-of-the-world");
    const response = await request(`${server.url}/favicons-of-the-world`);
    expect(response.status).toBe(404);
    await logged;
    expect(pageNotFoundLogged("/favicons-of-the-world")).toBe(true);
  });
});
