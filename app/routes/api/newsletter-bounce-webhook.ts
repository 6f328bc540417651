import { servicesContext } from "~/context";
import { methodNotAllowed } from "../../../server/errors.ts";
import { handleBounceWebhook } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-bounce-webhook";

/** POST /api/newsletter/webhooks/bounce {email, type, reason}, authenticated by a shared secret header. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleBounceWebhook(context.get(servicesContext), request);
}

/** Only POST changes anything here; any other method is told so (405), not "not found". */
export function loader() {
  return methodNotAllowed("POST");
}
