import { servicesContext } from "~/context";
import { methodNotAllowed } from "../../../server/errors.ts";
import { handleUnsubscribe } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-unsubscribe";

/** POST /api/newsletter/unsubscribe {token}, and the RFC 8058 one-click POST. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleUnsubscribe(context.get(servicesContext), request);
}

/** Only POST changes anything here; any other method is told so (405), not "not found". */
export function loader() {
  return methodNotAllowed("POST");
}
