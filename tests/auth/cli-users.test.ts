import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { runCliInProcess, runScript } from "../helpers/run-script.ts";
import {
  type Accounts,
  auditActions,
  OTHER_STRONG_PASSWORD,
  openAccounts,
  STRONG_PASSWORD,
  sessionUser,
  signIn,
} from "./accounts-fixture.ts";

/** `npm run cli -- users:*`, in-process and as a process, against a real database. */

describe.each(TEST_DIALECTS)("npm run cli -- users:* on %s", (dialect) => {
  let accounts: Accounts;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    accounts = await openAccounts(dialect);
    for (const [name, value] of Object.entries(accounts.env)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await accounts?.close();
  });

  it("--help lists the users commands", async () => {
    const help = await runCliInProcess(["--help"]);
    for (const command of ["users:create", "users:list", "users:set-role", "users:delete", "users:reset-password"]) {
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command} `, "m"));
    }
  });

  it("users:create makes accounts that can sign in; refuses bad input with a clear message", async () => {
    expect(
      await runCliInProcess([
        "users:create",
        "--email",
        "Ada@Example.test",
        "--password",
        STRONG_PASSWORD,
        "--name",
        "Ada",
        "--role",
        "admin",
      ]),
    ).toEqual({ code: 0, stdout: "Created admin ada@example.test (Ada).\n", stderr: "" });
    expect(
      await runCliInProcess([
        "users:create",
        "--email",
        "ed@example.test",
        "--password",
        STRONG_PASSWORD,
        "--role",
        "editor",
      ]),
    ).toEqual({ code: 0, stdout: "Created editor ed@example.test.\n", stderr: "" });
    expect((await signIn(accounts, "ada@example.test", STRONG_PASSWORD)).status).toBe(200);

    expect(
      await runCliInProcess([
        "users:create",
        "--email",
        "x@example.test",
        "--password",
        "password1234",
        "--role",
        "editor",
      ]),
    ).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error: This password is too common. Please choose a less predictable one.\n",
    });
    expect(
      await runCliInProcess([
        "users:create",
        "--email",
        "ADA@example.test",
        "--password",
        STRONG_PASSWORD,
        "--role",
        "editor",
      ]),
    ).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error: An account with this email address already exists.\n",
    });
    expect(
      await runCliInProcess([
        "users:create",
        "--email",
        "x@example.test",
        "--password",
        STRONG_PASSWORD,
        "--role",
        "owner",
      ]),
    ).toEqual({
      code: 2,
      stdout: "",
      stderr: "--role must be admin or editor.\n",
    });
    expect(await runCliInProcess(["users:create", "--email", "x@example.test", "--role", "editor"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "--password is required.\n",
    });
  });

  it("users:list prints each user with role and two-factor state", async () => {
    const { code, stdout } = await runCliInProcess(["users:list"]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^EMAIL\s+NAME\s+ROLE\s+2FA\s+CREATED$/);
    expect(lines[1]).toMatch(/^ada@example\.test\s+Ada\s+admin\s+off\s+\d{4}-\d{2}-\d{2}$/);
    expect(lines[2]).toMatch(/^ed@example\.test\s+editor\s+off\s+\d{4}-\d{2}-\d{2}$/);
    expect(lines).toHaveLength(3);
  });

  it("users:set-role changes roles and protects the last admin", async () => {
    expect(await runCliInProcess(["users:set-role", "--email", "ada@example.test", "--role", "editor"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error: This is the only administrator: make another user an administrator first.\n",
    });
    expect(await runCliInProcess(["users:set-role", "--email", "ED@example.test", "--role", "admin"])).toMatchObject({
      code: 0,
      stdout: "ed@example.test is now an admin.\n",
    });
    expect(await runCliInProcess(["users:set-role", "--email", "nobody@example.test", "--role", "admin"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error: No such user.\n",
    });
  });

  it("users:reset-password sets a new password and ends the user's sessions", async () => {
    const session = await signIn(accounts, "ed@example.test", STRONG_PASSWORD);
    expect(await sessionUser(accounts, session.cookie)).toBe("ed@example.test");
    expect(
      await runCliInProcess([
        "users:reset-password",
        "--email",
        "ed@example.test",
        "--password",
        OTHER_STRONG_PASSWORD,
      ]),
    ).toEqual({
      code: 0,
      stdout: "Set a new password for ed@example.test and signed them out everywhere.\n",
      stderr: "",
    });
    expect(await sessionUser(accounts, session.cookie)).toBeNull();
    expect((await signIn(accounts, "ed@example.test", OTHER_STRONG_PASSWORD)).status).toBe(200);
  });

  it("users:delete removes a user, never the last admin; every change left an audit row", async () => {
    expect(await runCliInProcess(["users:delete", "--email", "ed@example.test"])).toEqual({
      code: 0,
      stdout: "Deleted ed@example.test.\n",
      stderr: "",
    });
    expect(await runCliInProcess(["users:delete", "--email", "ada@example.test"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error: This is the only administrator: it cannot be deleted.\n",
    });
    const actions = await auditActions(accounts);
    for (const action of ["user.created", "user.role-changed", "user.password-reset", "user.deleted"]) {
      expect(actions).toContain(action);
    }
  });

  it("runs as a process (node cli/main.ts) with exit codes", async () => {
    const created = await runScript(
      "cli/main.ts",
      ["users:create", "--email", "proc@example.test", "--password", STRONG_PASSWORD, "--role", "editor"],
      accounts.env,
    );
    expect(created).toEqual({ code: 0, stdout: "Created editor proc@example.test.\n", stderr: "" });
    const refused = await runScript("cli/main.ts", ["users:delete", "--email", "ada@example.test"], accounts.env);
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error: This is the only administrator: it cannot be deleted.\n",
    });
  });
});
