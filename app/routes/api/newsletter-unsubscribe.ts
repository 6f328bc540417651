import { servicesContext } from "~/context";
import { handleUnsubscribe } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-unsubscribe";

/** POST /api/newsletter/unsubscribe {token}, and the RFC 8058 one-click POST. */
export async function action({ request, context }: Route.ActionArgs) {
  return handleUnsubscribe(context.get(servicesContext), request);
}
