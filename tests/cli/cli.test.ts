import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bounceWebhookSecret } from "../../server/newsletter/tokens.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { runCliInProcess, runScript } from "../helpers/run-script.ts";

/** Runs `node cli/main.ts …` as `npm run cli` does, with only the given environment. */
function spawnCli(argv: string[], env: Record<string, string>) {
  return runScript("cli/main.ts", argv, env);
}

describe("npm run cli", () => {
  it("--help lists the commands, db:migrate among them", async () => {
    const result = await runCliInProcess(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Usage: npm run cli -- <command> \[options\]\n/);
    expect(result.stdout).toMatch(/^ {2}db:migrate\s+Apply pending database migrations/m);
  });

  it("prints the same help with no command at all", async () => {
    const [none, help] = [await runCliInProcess([]), await runCliInProcess(["--help"])];
    expect(none).toEqual(help);
  });

  it("prints a command's usage for `<command> --help` instead of refusing the option", async () => {
    for (const flag of ["--help", "-h"]) {
      expect(await runCliInProcess(["users:create", flag]), flag).toEqual({
        code: 0,
        stdout:
          "Usage: npm run cli -- users:create --email E --password P --name N --role admin|editor\n\n" +
          "Create a user with a password and a role (admin or editor).\n",
        stderr: "",
      });
    }
  });

  it("refuses an unknown command with exit code 2 and a pointer to --help", async () => {
    const result = await runCliInProcess(["db:explode"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: 'Unknown command "db:explode". Run `npm run cli -- --help` for the list.\n',
    });
  });

  it("refuses an option the command does not take with exit code 2", async () => {
    const result = await runCliInProcess(["db:migrate", "--force"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("--force");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("reports a bad configuration with exit code 2, naming the variable", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "mysql://nope";
    try {
      const result = await runCliInProcess(["db:migrate"]);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: "DATABASE_URL must start with postgres://, postgresql://, sqlite: or file:\n",
      });
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });

  it("refuses to export or back up a SQLite database that is not there, and creates none", async () => {
    const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
    const parent = mkdtempSync(path.join(tmpdir(), "bastion-cli-"));
    const dataDir = path.join(parent, "mistyped");
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    try {
      const message = `There is no database at ${path.join(dataDir, "bastion.sqlite")}: check DATA_DIR or DATABASE_URL.\n`;
      for (const argv of [["export", path.join(parent, "site.json")], ["backup"]]) {
        expect(await runCliInProcess(argv), argv[0]).toEqual({ code: 2, stdout: "", stderr: message });
      }
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("keeps Node's compile cache of the modules it loads, for the next command to read", async () => {
    // Node keeps it in the system's temporary folder, os.tmpdir(): here one of the test's own.
    const temporary = mkdtempSync(path.join(tmpdir(), "bastion-compile-cache-"));
    try {
      expect((await spawnCli(["--help"], { TMPDIR: temporary })).code).toBe(0);
      const cached = readdirSync(path.join(temporary, "node-compile-cache"), { recursive: true, withFileTypes: true });
      // The commands' modules and their dependencies', not only the entry.
      expect(cached.filter((entry) => entry.isFile()).length).toBeGreaterThan(100);
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  });

  it("exits with the code as a process (node cli/main.ts)", async () => {
    const help = await spawnCli(["--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("db:migrate");
    const unknown = await spawnCli(["nope"], {});
    expect(unknown).toEqual({
      code: 2,
      stdout: "",
      stderr: 'Unknown command "nope". Run `npm run cli -- --help` for the list.\n',
    });
  });
});

describe.each(TEST_DIALECTS)("node cli/main.ts db:migrate on %s", (dialect) => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  it("migrates the database of DATABASE_URL, then finds it up to date", async () => {
    const env = { DATABASE_URL: testDb.url };
    const first = await spawnCli(["db:migrate"], env);
    expect(first).toEqual({
      code: 0,
      stdout: `Applied 8 migration(s) to the ${dialect} database: 0001-initial-schema, 0002-email-outbox-batch, 0003-content-revisions, 0004-media, 0005-phone-factor, 0006-audit-actor-kept, 0007-subscriber-bounced-at, 0008-newsletter-active-periods\n`,
      stderr: "",
    });
    const second = await spawnCli(["db:migrate"], env);
    expect(second).toEqual({ code: 0, stdout: `The ${dialect} database is up to date.\n`, stderr: "" });
  });
});

describe("npm run cli -- newsletter:webhook-secret", () => {
  it("prints the endpoint and the header the bounce webhook checks, derived from AUTH_SECRET", async () => {
    const saved = { AUTH_SECRET: process.env.AUTH_SECRET, PUBLIC_URL: process.env.PUBLIC_URL };
    process.env.AUTH_SECRET = "s".repeat(40);
    process.env.PUBLIC_URL = "https://bastion.example";
    try {
      // The same derivation the webhook checks (tests/newsletter cover that it accepts it).
      const expected = bounceWebhookSecret("s".repeat(40));
      expect(await runCliInProcess(["newsletter:webhook-secret"])).toEqual({
        code: 0,
        stdout: `POST https://bastion.example/api/newsletter/webhooks/bounce\nx-bastion-webhook-secret: ${expected}\n`,
        stderr: "",
      });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("uses the secret the server generated into DATA_DIR", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-cli-"));
    try {
      writeFileSync(path.join(dataDir, "auth-secret"), `${"g".repeat(43)}\n`);
      const result = await spawnCli(["newsletter:webhook-secret"], { DATA_DIR: dataDir });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`x-bastion-webhook-secret: ${bounceWebhookSecret("g".repeat(43))}\n`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses, and generates no secret, when neither AUTH_SECRET nor a generated one is there", async () => {
    const parent = mkdtempSync(path.join(tmpdir(), "bastion-cli-"));
    const dataDir = path.join(parent, "mistyped");
    try {
      // A secret generated here would not be the server's: the webhook would refuse every bounce.
      expect(await spawnCli(["newsletter:webhook-secret"], { DATA_DIR: dataDir })).toEqual({
        code: 2,
        stdout: "",
        stderr: `There is no auth secret at ${path.join(dataDir, "auth-secret")} and AUTH_SECRET is not set: check DATA_DIR, or start the server once to generate it.\n`,
      });
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
