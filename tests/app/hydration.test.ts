import { describe, expect, it } from "vitest";
import { hydratesPage } from "../../app/lib/hydration.ts";

describe("hydratesPage", () => {
  it("hydrates by default", () => {
    expect(hydratesPage([])).toBe(true);
    expect(hydratesPage([{ handle: undefined }, { handle: { other: 1 } }])).toBe(true);
  });

  it("follows the deepest route that says anything", () => {
    const publicLayout = { handle: { hydrate: false } };
    expect(hydratesPage([{}, publicLayout, { handle: undefined }])).toBe(false);
    expect(hydratesPage([{}, publicLayout, { handle: { hydrate: true } }])).toBe(true);
    expect(hydratesPage([{ handle: { hydrate: true } }, publicLayout])).toBe(false);
  });
});
