import { servicesContext } from "~/context";
import { methodNotAllowed } from "../../../server/errors.ts";
import { handleSubscribe } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-subscribe";

/** POST /api/newsletter/subscribe (JSON {email} or the home page's form). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleSubscribe(context.get(servicesContext), request);
}

/** Only POST changes anything here; any other method is told so (405), not "not found". */
export function loader() {
  return methodNotAllowed("POST");
}
