import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/run-script.ts";

/**
 * The project's .npmrc as npm reads it in the project: what `npm install` installs is
 * what the site needs to run and build, whatever NODE_ENV the shell has.
 */

function npmConfig(key: string, env: NodeJS.ProcessEnv): string {
  return execFileSync("npm", ["config", "get", key], { cwd: PROJECT_ROOT, env, encoding: "utf8" }).trim();
}

describe("npm's settings in the project", () => {
  it("installs the dev dependencies (the pinned Node, the build) even with NODE_ENV=production", () => {
    const env = { ...process.env, NODE_ENV: "production" };
    expect(npmConfig("include", env).split(",")).toContain("dev");
  });
});
