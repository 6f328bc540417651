import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { freePort } from "../tests/helpers/free-port.ts";
import { PROJECT_ROOT } from "../tests/helpers/run-script.ts";
import { serverEnvironment, spawnServerProcess } from "../tests/helpers/server.ts";

/** What the benches share: the production build, and the server they measure. */

/** Builds the app when there is no production build yet (the benches measure build/, never the sources). */
export function buildIfMissing(): void {
  if (!existsSync(path.join(PROJECT_ROOT, "build/server/index.js"))) {
    const build = spawnSync("npm", ["run", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

/**
 * The production server as tests/helpers/server.ts spawns it, but with LOG_LEVEL=warn:
 * one JSON request log line per request, parsed by this process, would compete with
 * the load generator for the CPU. On SQLite in `dataDir`, with `env` added, run by
 * `wrapper` when one is given (valgrind); ready when /healthz answers.
 */
export async function startQuietServer(
  dataDir: string,
  env: Record<string, string> = {},
  { wrapper = [], startTimeoutMs = 30_000 }: { wrapper?: string[]; startTimeoutMs?: number } = {},
) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnServerProcess(
    serverEnvironment({
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...env,
    }),
    wrapper,
  );
  // Read the server's output as it comes: a full pipe would stall it.
  let stderr = "";
  child.stdout?.resume();
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`The server did not start:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid as number,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
