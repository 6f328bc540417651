import { servicesContext } from "~/context";
import { handleSubscribe } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-subscribe";

/** POST /api/newsletter/subscribe (JSON {email} or the home page's form). */
export async function action({ request, context }: Route.ActionArgs) {
  return handleSubscribe(context.get(servicesContext), request);
}
