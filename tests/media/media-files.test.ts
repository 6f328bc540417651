import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express, { type ErrorRequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveLocalMedia } from "../../server/http/media-files.ts";
import { IMAGE_TYPES } from "../../server/media/image-type.ts";
import { newImageName } from "../../server/media/names.ts";
import { MEDIA_BUCKET } from "../../server/media/rules.ts";
import { createLocalStorage } from "../../server/media/storage/local.ts";

/**
 * Serving local media to visitors who leave: a browser that navigates away while an image
 * is still arriving closes the connection, which is no error of the server's.
 */
describe("serving a local image to a visitor who leaves before it has arrived", () => {
  let dataDir: string;
  let base: string;
  let server: ReturnType<express.Express["listen"]>;
  const errors: unknown[] = [];
  let answered: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "bastion-media-"));
    const storage = createLocalStorage({ dataDir, bucket: MEDIA_BUCKET, publicOrigin: "http://bastion.test" });
    const app = express();
    // Settles once the server has seen the connection close and sendFile has reported on it.
    app.use((_req, res, next) => {
      answered = new Promise((resolve) => res.once("close", () => setTimeout(resolve, 50)));
      next();
    });
    app.get("/media/:bucket/:name", serveLocalMedia(storage));
    // Stands for the site's last-resort handler, which logs what reaches it as a server error.
    const recordError: ErrorRequestHandler = (error, _req, res, _next) => {
      errors.push(error);
      if (!res.headersSent) res.status(500).end();
    };
    app.use(recordError);
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { name } = newImageName(IMAGE_TYPES.jpeg);
    // Far more than the sockets' buffers hold: the file is still being sent when the visitor leaves.
    await storage.put(name, Buffer.alloc(5 * 1024 * 1024, 0x61), "image/jpeg");
    base = `${base}/media/${MEDIA_BUCKET}/${name}`;
  });

  afterAll(() => {
    server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lets the transfer go without reporting an error", async () => {
    await new Promise<void>((resolve, reject) => {
      get(base, (response) => {
        expect(response.statusCode).toBe(200);
        response.once("data", () => {
          response.destroy();
          resolve();
        });
      }).once("error", reject);
    });
    await answered;
    expect(errors).toEqual([]);
  });
});
