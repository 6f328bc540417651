import { spawn } from "node:child_process";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { vi } from "vitest";
import { runCli } from "../../cli/run.ts";

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Runs `node <script> …argv` from the project root on the pinned Node 24, as the npm
 * scripts do, with only the given environment (nothing leaks from the test runner's).
 */
export async function runScript(
  script: string,
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const nodeBin = path.join(PROJECT_ROOT, "node_modules/node/bin");
  const child = spawn("node", [script, ...argv], {
    cwd: PROJECT_ROOT,
    env: { PATH: `${nodeBin}:${process.env.PATH ?? ""}`, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

/** Runs `npm run cli -- …argv` in-process, capturing what it writes to its output and to stderr. */
export async function runCliInProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  const output = new Writable({
    write(chunk, _encoding, done) {
      stdout += String(chunk);
      done();
    },
  });
  let stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await runCli(argv, output), stdout, stderr };
  } finally {
    spy.mockRestore();
  }
}
