import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../server/config.ts";
import { type CliCommand, UsageError } from "./command.ts";
import { backupCommands } from "./commands/backup.ts";
import { databaseCommands } from "./commands/database.ts";
import { newsletterCommands } from "./commands/newsletter.ts";
import { transferCommands } from "./commands/transfer.ts";
import { userCommands } from "./commands/users.ts";

/** `npm run cli -- <command> [options]`: administration from a terminal (started by cli/main.ts). */

const COMMANDS: CliCommand[] = [
  ...databaseCommands,
  ...userCommands,
  ...newsletterCommands,
  ...backupCommands,
  ...transferCommands,
];

function helpText(): string {
  const width = Math.max(...COMMANDS.map((command) => command.usage.length));
  const lines = COMMANDS.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`);
  return `Usage: npm run cli -- <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nConfiguration comes from the same environment variables as the server (see README).\n`;
}

/** Whether a command's arguments ask for its help (`users:create --help`); what follows `--` is an argument. */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

function commandHelpText(command: CliCommand): string {
  return `Usage: npm run cli -- ${command.usage}\n\n${command.summary}\n`;
}

export async function runCli(argv: string[], output: NodeJS.WritableStream = process.stdout): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    output.write(helpText());
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  // No command takes --help itself: parsing it as one of its options would refuse it as unknown.
  if (command && asksForHelp(rest)) {
    output.write(commandHelpText(command));
    return 0;
  }
  try {
    if (!command) throw new UsageError(`Unknown command "${name}". Run \`npm run cli -- --help\` for the list.`);
    const { values, positionals } = parseArgs({
      args: rest,
      options: command.options,
      strict: true,
      allowPositionals: command.positionals === true,
    });
    await command.run({ config: loadConfig(), values, positionals, output });
    return 0;
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 2;
    }
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
