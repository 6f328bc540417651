import { spawn } from "node:child_process";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/run-script.ts";

/** A process that logs one line through createLogger, its stdout a terminal or a pipe. */
const logOneLine = (environment?: string) => `
  const { createLogger } = await import(${JSON.stringify(path.join(PROJECT_ROOT, "server/logger.ts"))});
  createLogger({ level: "info", environment: ${JSON.stringify(environment)} }).info({ path: "/about" }, "Listening on http://127.0.0.1:3000");
`;
const LOG_ONE_LINE = logOneLine();

/** The output of a node script run with a pseudo-terminal as its stdout (script(1) copies what it writes there). */
function inTerminal(script: string): Promise<string> {
  const node = `'${process.execPath}' --input-type=module -e '${script.replaceAll("'", "'\\''")}'`;
  return output("script", ["--quiet", "--return", "--command", node, "/dev/null"]);
}

async function output(command: string, args: string[]): Promise<string> {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  expect(code).toBe(0);
  return stdout;
}

describe("server logs", () => {
  it("are JSON lines when stdout is not a terminal", async () => {
    const stdout = await output(process.execPath, ["--input-type=module", "-e", LOG_ONE_LINE]);
    expect(JSON.parse(stdout)).toMatchObject({ level: 30, path: "/about", msg: "Listening on http://127.0.0.1:3000" });
  });

  it("are readable lines when stdout is a terminal", async () => {
    const plain = stripVTControlCharacters(await inTerminal(logOneLine("development"))).trim();
    expect(plain).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Listening on http:\/\/127\.0\.0\.1:3000\r?\n\s+path: "\/about"$/,
    );
  });

  it("are JSON lines in production, even in a terminal", async () => {
    const stdout = stripVTControlCharacters(await inTerminal(logOneLine("production"))).trim();
    expect(JSON.parse(stdout)).toMatchObject({ level: 30, path: "/about", msg: "Listening on http://127.0.0.1:3000" });
  });
});
