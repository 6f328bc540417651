import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { summaryLine, terminalProgress } from "../../server/transfer/progress.ts";

/** An output stream that records what is written, as a terminal (isTTY) or not. */
function output(tty: boolean) {
  let written = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  });
  Object.assign(stream, { isTTY: tty, columns: 60 });
  return { stream, written: () => written };
}

describe("progress of long commands", () => {
  it("draws one updating line on a terminal and clears it at the end", () => {
    const terminal = output(true);
    const progress = terminalProgress(terminal.stream);
    progress.step("Importing newsletter_subscribers");
    progress.rows(500);
    progress.file(2048);
    progress.finish();
    // Finishing twice (after the summary, in a finally) clears the line once.
    progress.finish();
    const text = terminal.written();
    expect(text.startsWith("\r\x1b[2KImporting newsletter_subscribers — 0 rows, 0 files, 0 B")).toBe(true);
    // Every redraw returns to the start of the same line; nothing scrolls.
    expect(text).not.toContain("\n");
    expect(text.endsWith("\r\x1b[2K")).toBe(true);
    expect(text.endsWith("\r\x1b[2K\r\x1b[2K")).toBe(false);
    expect(progress.totals).toEqual({ tables: 0, rows: 500, files: 1, bytes: 2048 });
    // Cut to the terminal's width.
    for (const line of text.split("\r\x1b[2K")) expect(line.length).toBeLessThan(60);
  });

  it("writes nothing but counts when the output is not a terminal", () => {
    const pipe = output(false);
    const progress = terminalProgress(pipe.stream);
    progress.step("Reading chapters");
    progress.rows(1_234_567);
    progress.finish();
    expect(pipe.written()).toBe("");
    expect(progress.totals.rows).toBe(1_234_567);
  });

  it("sums up in one line: tables, rows, files, bytes, seconds", () => {
    const line = summaryLine(
      "Imported",
      { tables: 3, rows: 100_000, files: 2, bytes: 3 * 1024 * 1024 },
      2.44,
      "from x.json",
    );
    expect(line).toBe("Imported 3 tables, 100,000 rows, 2 files (3.0 MiB) from x.json in 2.4 s.");
  });
});
