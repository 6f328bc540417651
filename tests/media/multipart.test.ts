import { describe, expect, it } from "vitest";
import { Invalid, TooLarge } from "../../server/errors.ts";
import { MALFORMED_UPLOAD_MESSAGE, NO_FILE_MESSAGE, readImageUpload } from "../../server/media/multipart.ts";
import { FILE_TOO_LARGE_MESSAGE, MAX_IMAGE_BYTES } from "../../server/media/rules.ts";

const BOUNDARY = "----bastion-test-boundary";
const CHUNK = 64 * 1024;

/**
 * A multipart request whose file part is `fileBytes` long, produced only as it is
 * read (pull-based, no buffering): `pulled()` tells how much of the body was read.
 */
function streamedUpload(fileBytes: number, options: { field?: string; alt?: string } = {}) {
  const head = Buffer.from(
    `${options.alt === undefined ? "" : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="alt"\r\n\r\n${options.alt}\r\n`}` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${options.field ?? "file"}"; filename="photo.png"\r\n` +
      "Content-Type: image/png\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const total = head.length + fileBytes + tail.length;
  let offset = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= total) return controller.close();
        const size = Math.min(CHUNK, total - offset);
        const chunk = Buffer.alloc(size, 0x61);
        // The head and tail where they fall in this chunk.
        for (let index = 0; index < size; index++) {
          const at = offset + index;
          if (at < head.length) chunk[index] = head[at] as number;
          else if (at >= head.length + fileBytes) chunk[index] = tail[at - head.length - fileBytes] as number;
        }
        offset += size;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("http://bastion.test/api/media", {
    method: "POST",
    headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => offset, total };
}

describe("reading an upload as it streams", () => {
  it("gives the file's bytes, its name and the fields sent along", async () => {
    const { request } = streamedUpload(300_000, { alt: "A diagram" });
    const upload = await readImageUpload(request);
    expect(upload.bytes.length).toBe(300_000);
    expect(upload.bytes.every((byte) => byte === 0x61)).toBe(true);
    expect(upload.filename).toBe("photo.png");
    expect(upload.fields).toEqual({ alt: "A diagram" });
  });

  it("takes a file of exactly 5 MB", async () => {
    const { request } = streamedUpload(MAX_IMAGE_BYTES);
    expect((await readImageUpload(request)).bytes.length).toBe(MAX_IMAGE_BYTES);
  });

  it("stops reading just past 5 MB + 1 byte of file, long before the end of the body", async () => {
    const upload = streamedUpload(50 * 1024 * 1024);
    const error = await readImageUpload(upload.request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooLarge);
    expect((error as TooLarge).message).toBe(FILE_TOO_LARGE_MESSAGE);
    expect(upload.pulled()).toBeGreaterThan(MAX_IMAGE_BYTES);
    // At most a chunk or two of read-ahead past the limit; never the 50 MB.
    expect(upload.pulled()).toBeLessThan(MAX_IMAGE_BYTES + 4 * CHUNK);
  });

  it("refuses 5 MB + 1 byte with the spec's text", async () => {
    const error = await readImageUpload(streamedUpload(MAX_IMAGE_BYTES + 1).request).catch((caught) => caught);
    expect(error).toBeInstanceOf(TooLarge);
  });

  it("keeps a file name written in UTF-8 as it was typed, as browsers and curl send it", async () => {
    // Browsers put the name's UTF-8 bytes in the part's header as they are (no filename*=).
    const form = new FormData();
    form.append("file", new File([Buffer.from("abc")], "café résumé 写真.jpg", { type: "image/jpeg" }));
    const request = new Request("http://bastion.test/api/media", { method: "POST", body: form });
    expect((await readImageUpload(request)).filename).toBe("café résumé 写真.jpg");
  });

  it("needs the image in the field named file", async () => {
    const error = await readImageUpload(streamedUpload(1000, { field: "image" }).request).catch((caught) => caught);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).message).toBe(NO_FILE_MESSAGE);
  });

  it("refuses a body that is not multipart, or is cut short", async () => {
    const form = new Request("http://bastion.test/api/media", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "file=x",
    });
    expect(((await readImageUpload(form).catch((caught) => caught)) as Invalid).message).toBe(NO_FILE_MESSAGE);

    const cut = new Request("http://bastion.test/api/media", {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc`,
    });
    expect(((await readImageUpload(cut).catch((caught) => caught)) as Invalid).message).toBe(MALFORMED_UPLOAD_MESSAGE);
  });
});
