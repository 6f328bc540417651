import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/run-script.ts";
import { SERVER_MALLOC_ENVIRONMENT, SERVER_NODE_FLAGS } from "../helpers/server.ts";

/**
 * The server's memory settings (docs/decisions/018-server-memory.md) live in three
 * places: `npm start`, the systemd unit, and the tests' spawned servers. The benches and
 * tests measure the last; this keeps the first two the same.
 */
describe("the server's memory settings", () => {
  const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), "utf8");

  const mallocSettings = Object.entries(SERVER_MALLOC_ENVIRONMENT).map(([name, value]) => `${name}=${value}`);

  it("npm start runs the server with the tests' Node flags and malloc settings", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start ?? "";
    expect(start.startsWith(`${mallocSettings.join(" ")} node `)).toBe(true);
    for (const flag of SERVER_NODE_FLAGS) expect(start).toContain(` ${flag} `);
  });

  it("the systemd unit starts the server the same way", () => {
    const unit = read("docs/deploy/bastion.service");
    for (const setting of mallocSettings) expect(unit).toContain(`\nEnvironment=${setting}\n`);
    const execStart = unit.split("\n").find((line) => line.startsWith("ExecStart=")) ?? "";
    for (const flag of SERVER_NODE_FLAGS) expect(execStart).toContain(` ${flag} `);
  });
});
