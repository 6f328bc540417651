import type { ParseArgsOptionsConfig } from "node:util";
import type { Config } from "../server/config.ts";

/** One `npm run cli -- <name>` command. Later features add theirs to cli/main.ts. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  options: ParseArgsOptionsConfig;
  run(context: {
    config: Config;
    values: Record<string, string | boolean | (string | boolean)[] | undefined>;
    output: NodeJS.WritableStream;
  }): Promise<void>;
}

/** A mistake in how a command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
