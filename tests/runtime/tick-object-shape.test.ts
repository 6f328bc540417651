import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/run-script.ts";

/**
 * server/runtime/tick-object-shape.ts keeps process.nextTick() on V8's fast path after a
 * full garbage collection. What V8 recorded is read the only way it can be: a child
 * Node process with V8's natives syntax prints nextTick's feedback (%DebugPrint), one
 * line per computed key of the tick object literal, MONOMORPHIC or MEGAMORPHIC. Without
 * the module the same steps must turn the literal megamorphic, or the module would have
 * nothing left to do on this Node version.
 */

const MODULE_URL = pathToFileURL(path.join(PROJECT_ROOT, "server/runtime/tick-object-shape.ts")).href;

/** The states of nextTick's literal keys after ticks, two full collections with no tick pending, and more ticks. */
function literalFeedbackAfterFullCollection(keepShape: boolean): string[] {
  const script = `
    ${keepShape ? `await import(${JSON.stringify(MODULE_URL)});` : ""}
    const ticks = (count) => { for (let index = 0; index < count; index++) process.nextTick(() => {}); };
    const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 10));
    for (let turn = 0; turn < 5; turn++) { ticks(100); await nextTurn(); }
    globalThis.gc();
    globalThis.gc();
    for (let turn = 0; turn < 5; turn++) { ticks(100); await nextTurn(); }
    %DebugPrint(process.nextTick);
  `;
  const child = spawnSync(
    process.execPath,
    ["--allow-natives-syntax", "--expose-gc", "--input-type=module", "-e", script],
    { cwd: PROJECT_ROOT, encoding: "utf8", timeout: 20_000 },
  );
  expect(child.status, child.stderr).toBe(0);
  return [...child.stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] as string);
}

describe("the tick object kept alive", () => {
  it("without it, a full collection turns nextTick's tick object literal megamorphic", () => {
    const states = literalFeedbackAfterFullCollection(false);
    expect(states.length).toBeGreaterThanOrEqual(3);
    expect(states).toContain("MEGAMORPHIC");
  });

  it("with it, every key of the literal stays monomorphic through full collections", () => {
    const states = literalFeedbackAfterFullCollection(true);
    expect(states.length).toBeGreaterThanOrEqual(3);
    expect(states.every((state) => state === "MONOMORPHIC")).toBe(true);
  });
});

describe("the process entries", () => {
  // Imported later, a full collection during start-up could turn the literal megamorphic first.
  it.each([
    ["server/serve.ts", "./runtime/tick-object-shape.ts"],
    ["scripts/start.ts", "../server/runtime/tick-object-shape.ts"],
  ])("%s imports the module before anything else", (entry, specifier) => {
    const source = readFileSync(path.join(PROJECT_ROOT, entry), "utf8");
    const firstImport = source.split("\n").find((line) => line.startsWith("import "));
    expect(firstImport).toBe(`import "${specifier}";`);
  });
});
