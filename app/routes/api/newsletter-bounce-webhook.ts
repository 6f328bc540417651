import { servicesContext } from "~/context";
import { handleBounceWebhook } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-bounce-webhook";

/** POST /api/newsletter/webhooks/bounce {email, type, reason}, authenticated by a shared secret header. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleBounceWebhook(context.get(servicesContext), request);
}
