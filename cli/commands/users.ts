import pino from "pino";
import {
  type AccountServices,
  createUser,
  deleteUser,
  findUser,
  listUsers,
  parseRole,
  resetPassword,
  setRole,
} from "../../server/auth/users.ts";
import { backupBeforeMigrating } from "../../server/backup/pre-migration.ts";
import type { Config } from "../../server/config.ts";
import { ROLES } from "../../server/db/schema.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createAuthForDatabase } from "../../server/services.ts";
import { type CliCommand, UsageError } from "../command.ts";

/** `users:*`: accounts from a terminal, through the same services as the admin screens. */

type Values = Parameters<CliCommand["run"]>[0]["values"];

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required.`);
  return value;
}

function role(values: Values): (typeof ROLES)[number] {
  const value = required(values, "role");
  if (!(ROLES as readonly string[]).includes(value)) throw new UsageError(`--role must be ${ROLES.join(" or ")}.`);
  return parseRole(value);
}

/** Opens the database (migrated) and Better Auth on it; closes both after work. */
async function withAccounts<T>(config: Config, work: (services: AccountServices) => Promise<T>): Promise<T> {
  // Errors only, and on stderr: stdout is the command's answer.
  const logger = pino({ level: "error", base: undefined }, pino.destination({ dest: 2, sync: true }));
  // A database with data gets a backup before its schema changes, as at start.
  const database = await prepareDatabase(config.database, logger, async (handle) => {
    const backup = await backupBeforeMigrating(config, handle, { info: () => {} });
    if (backup) process.stderr.write(`Backed up the database before migrating: ${backup}\n`);
  });
  const { auth, close } = createAuthForDatabase(config, database, logger);
  try {
    // Better Auth checks its tables in the background once started; wait for it, so
    // that closing the database soon after does not cut the check short.
    const context = (await auth.$context) as { checkSchema?: () => Promise<unknown> | undefined };
    await context.checkSchema?.();
    return await work({ auth, db: database.db });
  } finally {
    await close();
    await database.close();
  }
}

const article = (value: string) => (/^[aeiou]/.test(value) ? `an ${value}` : `a ${value}`);

export const userCommands: CliCommand[] = [
  {
    name: "users:create",
    summary: "Create a user with a password and a role (admin or editor).",
    usage: "users:create --email E --password P --name N --role admin|editor",
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
    },
    async run({ config, values, output }) {
      const input = {
        email: required(values, "email"),
        password: required(values, "password"),
        name: typeof values.name === "string" ? values.name : "",
        role: role(values),
      };
      const user = await withAccounts(config, (services) => createUser(services, { ...input, via: "cli" }));
      output.write(`Created ${user.role} ${user.email}${user.name ? ` (${user.name})` : ""}.\n`);
    },
  },
  {
    name: "users:list",
    summary: "List users with their role and whether two-factor is on.",
    usage: "users:list",
    options: {},
    async run({ config, output }) {
      const users = await withAccounts(config, listUsers);
      if (users.length === 0) {
        output.write("No users yet.\n");
        return;
      }
      const rows = [
        ["EMAIL", "NAME", "ROLE", "2FA", "CREATED"],
        ...users.map((user) => [
          user.email,
          user.name,
          user.role ?? "none",
          user.twoFactorEnabled ? "on" : "off",
          user.createdAt.slice(0, 10),
        ]),
      ];
      const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
      for (const row of rows) {
        output.write(
          `${row
            .map((cell, column) => cell.padEnd(widths[column] ?? 0))
            .join("  ")
            .trimEnd()}\n`,
        );
      }
    },
  },
  {
    name: "users:set-role",
    summary: "Change a user's role (the last admin keeps theirs).",
    usage: "users:set-role --email E --role admin|editor",
    options: { email: { type: "string" }, role: { type: "string" } },
    async run({ config, values, output }) {
      const email = required(values, "email");
      const newRole = role(values);
      const user = await withAccounts(config, async (services) => {
        const found = await findUser(services, { email });
        return setRole(services, { userId: found.id, role: newRole });
      });
      output.write(`${user.email} is now ${article(newRole)}.\n`);
    },
  },
  {
    name: "users:delete",
    summary: "Delete a user and their sessions (never the last admin).",
    usage: "users:delete --email E",
    options: { email: { type: "string" } },
    async run({ config, values, output }) {
      const email = required(values, "email");
      const user = await withAccounts(config, async (services) => {
        const found = await findUser(services, { email });
        return deleteUser(services, { userId: found.id });
      });
      output.write(`Deleted ${user.email}.\n`);
    },
  },
  {
    name: "users:reset-password",
    summary: "Set a new password for a user and sign them out everywhere.",
    usage: "users:reset-password --email E --password P",
    options: { email: { type: "string" }, password: { type: "string" } },
    async run({ config, values, output }) {
      const email = required(values, "email");
      const password = required(values, "password");
      const user = await withAccounts(config, async (services) => {
        const found = await findUser(services, { email });
        return resetPassword(services, { userId: found.id, password });
      });
      output.write(`Set a new password for ${user.email} and signed them out everywhere.\n`);
    },
  },
];
