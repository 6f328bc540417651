import { existsSync } from "node:fs";
import { authSecretFile, type Config, resolveAuthSecret } from "../../server/config.ts";
import { BOUNCE_SECRET_HEADER } from "../../server/newsletter/api.ts";
import { bounceWebhookSecret } from "../../server/newsletter/tokens.ts";
import { type CliCommand, UsageError } from "../command.ts";

/**
 * The server's secret: AUTH_SECRET, or the one the server generated into DATA_DIR. Never
 * a new one: with a mistyped or missing DATA_DIR (or before the first start) generating
 * it would leave a stray secret behind and print a webhook secret the server refuses,
 * so that every bounce the provider reports would be turned away.
 */
function serverAuthSecret(config: Config): string {
  const file = authSecretFile(config);
  if (!config.authSecret && !existsSync(file)) {
    throw new UsageError(
      `There is no auth secret at ${file} and AUTH_SECRET is not set: check DATA_DIR, or start the server once to generate it.`,
    );
  }
  return resolveAuthSecret(config);
}

export const newsletterCommands: CliCommand[] = [
  {
    name: "newsletter:webhook-secret",
    summary: "Print the shared secret your mail provider sends to the bounce webhook.",
    usage: "newsletter:webhook-secret",
    options: {},
    async run({ config, output }) {
      // Derived from the server's secret, so every instance with the same AUTH_SECRET agrees.
      const secret = bounceWebhookSecret(serverAuthSecret(config));
      output.write(`POST ${config.publicOrigin}/api/newsletter/webhooks/bounce\n${BOUNCE_SECRET_HEADER}: ${secret}\n`);
    },
  },
];
