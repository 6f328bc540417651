import { defineConfig } from "vitest/config";

/**
 * Two projects (no React Router Vite plugin: tests import server code directly, and
 * anything that needs the app spawns the built server):
 * - "integration": tests/** that run in-process against real SQLite / PostgreSQL;
 * - "e2e": browser tests, the HTTP tests under tests/http/ and the several-instance
 *   tests under tests/scale/, which spawn the built server and so share
 *   e2e/global-setup.ts (it builds the app once).
 * `npx vitest run --project integration` runs the first alone.
 */
export default defineConfig({
  test: {
    // 2-core machines: two test files at a time keeps the run fast without thrashing.
    maxWorkers: 2,
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
    fileParallelism: true,
    projects: [
      {
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/http/**", "tests/scale/**", "**/node_modules/**"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          environment: "node",
          include: ["e2e/**/*.test.ts", "tests/http/**/*.test.ts", "tests/scale/**/*.test.ts"],
          globalSetup: ["e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Vitest's default of 1 s is shorter than a browser's re-render takes when a
          // test file shares the two cores with another: a keyboard drag announced its
          // move after more than a second in CI.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
