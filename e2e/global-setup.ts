import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROJECT_ROOT as ROOT } from "../tests/helpers/run-script.ts";
import { chromiumExecutablePath } from "./helpers/browser.ts";

/**
 * Once per run of the "e2e" project: builds the app (the tests spawn the built server)
 * and unpacks Chromium, so parallel test files neither rebuild nor race to unpack.
 * BASTION_SKIP_BUILD=1 reuses the current build/ (handy when iterating locally).
 */

const BUILD_LOG = path.join(tmpdir(), "bastion-e2e-build.log");
const LOG_TAIL_LINES = 80;

export default async function setup(): Promise<void> {
  if (process.env.BASTION_SKIP_BUILD !== "1") await buildApp();
  await chromiumExecutablePath();
}

async function buildApp(): Promise<void> {
  const log = openSync(BUILD_LOG, "w");
  const started = Date.now();
  let code: number | null;
  try {
    code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn("npm", ["run", "build"], {
        cwd: ROOT,
        // A production bundle: Vite would otherwise keep the runner's NODE_ENV=test.
        env: { ...process.env, NODE_ENV: "production" },
        stdio: ["ignore", log, log],
      });
      child.once("error", reject);
      child.once("close", resolve);
    });
  } finally {
    closeSync(log);
  }
  if (code !== 0) {
    const output = readFileSync(BUILD_LOG, "utf8").trimEnd().split("\n").slice(-LOG_TAIL_LINES).join("\n");
    throw new Error(`npm run build failed (exit code ${code}); full log in ${BUILD_LOG}. Last lines:\n${output}`);
  }
  process.stdout.write(`e2e global setup: built the app in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
