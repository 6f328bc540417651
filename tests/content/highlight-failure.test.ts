import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * When Shiki fails, the code block shows as plain text, and the failure is logged
 * instead of swallowed; a highlighter that failed to start is tried again by the next
 * block. Shiki is made to fail here (a third-party library: the fault is injected).
 */

const failures = vi.hoisted(() => ({ start: 0, render: 0 }));

vi.mock("shiki", async (importOriginal) => {
  const shiki = await importOriginal<typeof import("shiki")>();
  return {
    ...shiki,
    createHighlighter: async (...args: Parameters<typeof shiki.createHighlighter>) => {
      if (failures.start > 0) {
        failures.start--;
        throw new Error("the grammar registry could not start");
      }
      const highlighter = await shiki.createHighlighter(...args);
      const codeToHtml = highlighter.codeToHtml.bind(highlighter);
      highlighter.codeToHtml = (code, options) => {
        if (code.includes("explode")) throw new Error("a grammar's pattern ran away");
        return codeToHtml(code, options);
      };
      return highlighter;
    },
  };
});

const { highlightCode } = await import("../../server/content/highlight.ts");

function recordingLogger() {
  const warnings: Array<{ msg: string; err?: { message: string }; language?: string; characters?: number }> = [];
  const logger = pino(
    { level: "warn", base: undefined, timestamp: false },
    { write: (line: string) => warnings.push(JSON.parse(line)) },
  );
  return { warnings, logger };
}

afterEach(() => {
  failures.start = 0;
});

describe("highlightCode when Shiki fails", () => {
  it("logs a highlighter that failed to start, and starts it again for the next block", async () => {
    const { warnings, logger } = recordingLogger();
    failures.start = 1;
    expect(await highlightCode("const a = 1;", "javascript", logger)).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      msg: "Syntax highlighting is unavailable; code blocks are shown as plain text",
      err: { message: "the grammar registry could not start" },
    });

    // Not remembered as plain text: the same block is highlighted once Shiki starts.
    expect(await highlightCode("const a = 1;", "javascript", logger)).toMatch(/^<pre class="shiki/);
    expect(warnings).toHaveLength(1);
  });

  it("logs a block it could not highlight, once, and shows it as plain text", async () => {
    const { warnings, logger } = recordingLogger();
    const code = "explode();";
    expect(await highlightCode(code, "javascript", logger)).toBeNull();
    expect(await highlightCode(code, "javascript", logger)).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      msg: "A code block could not be highlighted; it is shown as plain text",
      err: { message: "a grammar's pattern ran away" },
      language: "javascript",
      characters: code.length,
    });
  });
});
