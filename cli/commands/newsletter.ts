import { resolveAuthSecret } from "../../server/config.ts";
import { BOUNCE_SECRET_HEADER } from "../../server/newsletter/api.ts";
import { bounceWebhookSecret } from "../../server/newsletter/tokens.ts";
import type { CliCommand } from "../command.ts";

export const newsletterCommands: CliCommand[] = [
  {
    name: "newsletter:webhook-secret",
    summary: "Print the shared secret your mail provider sends to the bounce webhook.",
    usage: "newsletter:webhook-secret",
    options: {},
    async run({ config, output }) {
      // Derived from the server's secret, so every instance with the same AUTH_SECRET agrees.
      const secret = bounceWebhookSecret(resolveAuthSecret(config));
      output.write(`POST ${config.publicOrigin}/api/newsletter/webhooks/bounce\n${BOUNCE_SECRET_HEADER}: ${secret}\n`);
    },
  },
];
