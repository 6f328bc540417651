import type { ParseArgsOptionsConfig } from "node:util";
import type { Config } from "../server/config.ts";

/** One `npm run cli -- <name>` command. Later features add theirs to cli/run.ts. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  options: ParseArgsOptionsConfig;
  /** Whether the command takes arguments besides its options (e.g. a file name). */
  positionals?: boolean;
  run(context: {
    config: Config;
    values: Record<string, string | boolean | (string | boolean)[] | undefined>;
    /** The arguments besides options; only for commands that take them. */
    positionals?: string[];
    output: NodeJS.WritableStream;
  }): Promise<void>;
}

/** A mistake in how a command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
