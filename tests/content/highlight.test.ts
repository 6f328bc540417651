import { bundledLanguages } from "shiki";
import { describe, expect, it } from "vitest";
import { highlightCode, resolveLanguage } from "../../server/content/highlight.ts";

const SAMPLE = 'let answer = 42; // a comment\nprint("text")\n';
const warnings: unknown[] = [];
const logger = { warn: (...args: unknown[]) => void warnings.push(args) };

describe("highlightCode", () => {
  it("colours code in both themes, as CSS variables", async () => {
    const html = await highlightCode("const answer: number = 42;", "TypeScript", logger);
    expect(html).toMatch(/^<pre class="shiki/);
    expect(html).toContain("--shiki-light:");
    expect(html).toContain("--shiki-dark:");
  });

  it("answers null for a language it does not know, so the page shows plain text", async () => {
    expect(resolveLanguage("no-such-language")).toBeNull();
    expect(await highlightCode(SAMPLE, "no-such-language", logger)).toBeNull();
  });

  // The JavaScript regex engine translates each grammar's Oniguruma patterns; a grammar
  // it could not run would fall back to plain text without a word.
  it("highlights with every bundled grammar on the JavaScript regex engine", { timeout: 60_000 }, async () => {
    const unhighlighted: string[] = [];
    for (const language of Object.keys(bundledLanguages)) {
      if ((await highlightCode(SAMPLE, language, logger)) === null) unhighlighted.push(language);
    }
    expect(unhighlighted).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
