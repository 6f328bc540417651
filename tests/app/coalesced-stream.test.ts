import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { coalescedStream } from "../../server/http/coalesced-stream.ts";

function collect(stream: NodeJS.ReadableStream) {
  const chunks: string[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  return chunks;
}

describe("the page body stream (coalescedStream)", () => {
  it("joins what is written in one turn into one chunk, keeping every byte in order", async () => {
    const stream = coalescedStream();
    const chunks = collect(stream);
    for (let index = 0; index < 100; index++) expect(stream.write(Buffer.from(`<p>${index}</p>`))).toBe(true);
    await nextTurn();
    stream.write("<footer>");
    stream.write("</footer>");
    await nextTurn();
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toBe(Array.from({ length: 100 }, (_, index) => `<p>${index}</p>`).join(""));
    expect(chunks[1]).toBe("<footer></footer>");
  });

  it("holds nothing back at the end, then calls final once", async () => {
    let finals = 0;
    const stream = coalescedStream({
      final(callback) {
        finals += 1;
        callback();
      },
    });
    const chunks = collect(stream);
    const ended = new Promise((resolve) => stream.on("end", resolve));
    stream.write("<html>");
    stream.end("</html>");
    await ended;
    expect(chunks.join("")).toBe("<html></html>");
    expect(finals).toBe(1);
  });
});
