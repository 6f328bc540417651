import { servicesContext } from "~/context";
import { handleConfirm } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-confirm";

/** GET /api/newsletter/confirm?token= and POST {token}: JSON {success} or {error}. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return handleConfirm(context.get(servicesContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleConfirm(context.get(servicesContext), request);
}
