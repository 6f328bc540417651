import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Invalid, TooLarge } from "../../server/errors.ts";
import {
  fetchImage,
  INVALID_REDIRECT_MESSAGE,
  NOT_HTTP_MESSAGE,
  REFUSED_ADDRESS_MESSAGE,
  TIMEOUT_MESSAGE,
  TOO_MANY_REDIRECTS_MESSAGE,
} from "../../server/media/fetch-image.ts";
import { isPublicAddress } from "../../server/media/public-address.ts";
import { FILE_TOO_LARGE_MESSAGE, INVALID_FILE_TYPE_MESSAGE, MAX_IMAGE_BYTES } from "../../server/media/rules.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { png, SVG } from "./images.ts";
import { ACTOR_ID, useLibrary } from "./library-fixture.ts";

/**
 * The "public" image host of these tests listens on 127.0.0.2, which only these tests
 * allow; everything else keeps the production rule (public addresses only). A second
 * server on 127.0.0.1 stands for an internal service and counts what reaches it.
 */
const HOST_ADDRESS = "127.0.0.2";
const allowTestHost = (address: string) => address === HOST_ADDRESS || isPublicAddress(address);

let host: Server;
let internal: Server;
let hostUrl: string;
let internalUrl: string;
let internalHits = 0;
let image: Buffer;

function listen(server: Server, address: string): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, address, () => resolve(`http://${address}:${(server.address() as AddressInfo).port}`));
  });
}

beforeAll(async () => {
  image = await png(1200, 600);
  internal = createServer((_req, res) => {
    internalHits++;
    res.writeHead(200, { "Content-Type": "image/png" }).end(image);
  });
  internalUrl = await listen(internal, "127.0.0.1");
  const internalPort = new URL(internalUrl).port;
  host = createServer((req, res) => {
    const redirect = (location: string) => res.writeHead(302, { Location: location }).end();
    switch (req.url) {
      case "/photo.png":
        return res.writeHead(200, { "Content-Type": "image/png" }).end(image);
      case "/to-loopback":
        return redirect(`${internalUrl}/photo.png`);
      case "/to-metadata":
        return redirect("http://169.254.169.254/latest/meta-data/iam/security-credentials/");
      case "/to-localhost":
        return redirect(`http://localhost:${internalPort}/photo.png`);
      case "/photos/caf%C3%A9%20au%20lait.png":
      case "/photos/nul%00byte.png":
        return res.writeHead(200, { "Content-Type": "image/png" }).end(image);
      case "/relative":
        return redirect("/photo.png");
      case "/loop":
        return redirect("/loop");
      case "/to-malformed":
        return redirect("http://[");
      case "/huge-declared":
        res.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(MAX_IMAGE_BYTES + 1) });
        return res.write(image);
      case "/huge-streamed": {
        res.writeHead(200, { "Content-Type": "image/png" });
        const block = Buffer.alloc(256 * 1024, 1);
        let sent = 0;
        const more = () => {
          while (sent < 3 * MAX_IMAGE_BYTES && !res.destroyed) {
            sent += block.length;
            if (!res.write(block)) return res.once("drain", more);
          }
          res.end();
        };
        return more();
      }
      case "/svg-as-png":
        return res.writeHead(200, { "Content-Type": "image/png" }).end(SVG);
      case "/slow":
        return; // never answers
      default:
        return res.writeHead(404).end();
    }
  });
  hostUrl = await listen(host, HOST_ADDRESS);
});

afterAll(() => {
  host?.closeAllConnections();
  host?.close();
  internal?.close();
});

async function refusal(url: string, options = { isAllowedAddress: allowTestHost }): Promise<Error> {
  return fetchImage(url, options).then(
    () => {
      throw new Error(`${url} was fetched`);
    },
    (error: Error) => error,
  );
}

describe("public addresses", () => {
  it.each([
    ["8.8.8.8", true],
    ["93.184.215.14", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["127.0.0.1", false],
    ["127.255.0.9", false],
    ["0.0.0.0", false],
    ["10.1.2.3", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.100.100.200", false],
    ["192.0.2.10", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["::1", false],
    ["::", false],
    ["fe80::1", false],
    ["fd00:ec2::254", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["2002:7f00:1::", false],
    ["64:ff9b::7f00:1", false],
    ["not an address", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("fetching an image by URL", () => {
  it("downloads an image from an allowed host, following a relative redirect", async () => {
    expect((await fetchImage(`${hostUrl}/photo.png`, { isAllowedAddress: allowTestHost })).equals(image)).toBe(true);
    expect((await fetchImage(`${hostUrl}/relative`, { isAllowedAddress: allowTestHost })).equals(image)).toBe(true);
  });

  it.each([
    "http://127.0.0.1/latest",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://10.0.0.1/",
    "http://[fd00:ec2::254]/",
  ])("refuses %s before connecting", async (url) => {
    const error = await refusal(url);
    expect(error).toBeInstanceOf(Invalid);
    expect(error.message).toBe(REFUSED_ADDRESS_MESSAGE);
  });

  it("refuses the internal service itself, and a name that resolves to loopback", async () => {
    const hits = internalHits;
    expect((await refusal(`${internalUrl}/photo.png`)).message).toBe(REFUSED_ADDRESS_MESSAGE);
    const port = new URL(internalUrl).port;
    expect((await refusal(`http://localhost:${port}/photo.png`)).message).toBe(REFUSED_ADDRESS_MESSAGE);
    expect(internalHits).toBe(hits);
  });

  it.each(["/to-loopback", "/to-metadata", "/to-localhost"])(
    "refuses a redirect to a non-public address (%s)",
    async (path) => {
      const hits = internalHits;
      const error = await refusal(`${hostUrl}${path}`);
      expect(error.message).toBe(REFUSED_ADDRESS_MESSAGE);
      expect(internalHits).toBe(hits);
    },
  );

  it("refuses the test host too under the production rule", async () => {
    expect((await refusal(`${hostUrl}/photo.png`, { isAllowedAddress: isPublicAddress })).message).toBe(
      REFUSED_ADDRESS_MESSAGE,
    );
  });

  it.each([
    "file:///etc/passwd",
    "ftp://example.com/a.png",
    "gopher://127.0.0.1:25/",
    "javascript:alert(1)",
    "not a url",
  ])("only fetches http(s): %s", async (url) => {
    expect((await refusal(url)).message).toBe(NOT_HTTP_MESSAGE);
  });

  it("refuses credentials in the URL, too many redirects and error statuses", async () => {
    expect((await refusal("http://user:secret@example.com/a.png")).message).toMatch(/user name or password/);
    expect((await refusal(`${hostUrl}/loop`)).message).toBe(TOO_MANY_REDIRECTS_MESSAGE);
    expect((await refusal(`${hostUrl}/missing.png`)).message).toMatch(/HTTP 404/);
  });

  it("refuses a redirect whose Location is no URL as bad input (400), not as a failure of its own", async () => {
    const error = await refusal(`${hostUrl}/to-malformed`);
    expect(error).toBeInstanceOf(Invalid);
    expect(error.message).toBe(INVALID_REDIRECT_MESSAGE);
    expect((error as Invalid).status).toBe(400);
  });

  it("stops at 5 MB, whether the size is declared or streamed", async () => {
    for (const path of ["/huge-declared", "/huge-streamed"]) {
      const error = await refusal(`${hostUrl}${path}`);
      expect(error, path).toBeInstanceOf(TooLarge);
      expect(error.message).toBe(FILE_TOO_LARGE_MESSAGE);
    }
  });

  it("gives up after its time limit", async () => {
    const started = performance.now();
    const error = await fetchImage(`${hostUrl}/slow`, { isAllowedAddress: allowTestHost, timeoutMs: 300 }).then(
      () => new Error("fetched"),
      (caught: Error) => caught,
    );
    expect(error.message).toBe(TIMEOUT_MESSAGE);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe.each(TEST_DIALECTS)("importing by URL into the library on %s", (dialect) => {
  const f = useLibrary(dialect, "local");

  it("stores the fetched image like an upload, remembering where it came from", async () => {
    const library = f.openLibrary({ fetchOptions: { isAllowedAddress: allowTestHost } });
    const item = await library.importFromUrl({ url: `${hostUrl}/photo.png`, alt: "Imported" }, ACTOR_ID);
    expect(item).toMatchObject({
      mime: "image/png",
      width: 1200,
      height: 600,
      alt: "Imported",
      sourceUrl: `${hostUrl}/photo.png`,
      originalName: "photo.png",
    });
    expect(item.variants.length).toBeGreaterThan(0);
    expect((await f.storage.get(item.url.split("/").pop() as string))?.contentType).toBe("image/png");
  });

  it("names an imported image as the address's last segment reads, not percent-encoded", async () => {
    const library = f.openLibrary({ fetchOptions: { isAllowedAddress: allowTestHost } });
    const named = await library.importFromUrl({ url: `${hostUrl}/photos/caf%C3%A9%20au%20lait.png` }, ACTOR_ID);
    expect(named.originalName).toBe("café au lait.png");
    // A name that would decode to a control character stays as it was written.
    const odd = await library.importFromUrl({ url: `${hostUrl}/photos/nul%00byte.png` }, ACTOR_ID);
    expect(odd.originalName).toBe("nul%00byte.png");
  });

  it("checks the fetched bytes like an upload's, and stores nothing refused", async () => {
    const library = f.openLibrary({ fetchOptions: { isAllowedAddress: allowTestHost } });
    const rows = async () => (await f.handle.db.selectFrom("media").select("id").execute()).length;
    const before = await rows();
    await expect(library.importFromUrl({ url: `${hostUrl}/svg-as-png` }, ACTOR_ID)).rejects.toThrow(
      INVALID_FILE_TYPE_MESSAGE,
    );
    await expect(
      f.library.importFromUrl({ url: "http://169.254.169.254/latest/meta-data/" }, ACTOR_ID),
    ).rejects.toThrow(REFUSED_ADDRESS_MESSAGE);
    const malformed = await library.importFromUrl({ url: `${hostUrl}/to-malformed` }, ACTOR_ID).catch((e) => e);
    expect(malformed).toBeInstanceOf(Invalid);
    expect(malformed.message).toBe(INVALID_REDIRECT_MESSAGE);
    expect(await rows()).toBe(before);
  });
});
