import { servicesContext } from "~/context";
import { methodNotAllowed } from "../../../server/errors.ts";
import { handleConfirm } from "../../../server/newsletter/api.ts";
import type { Route } from "./+types/newsletter-confirm";

/**
 * POST /api/newsletter/confirm {token}: JSON {success} or {error}. A GET or HEAD (a
 * mail scanner following the link) confirms nothing: a person confirms by pressing the
 * button of /newsletter/confirm.
 */
export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleConfirm(context.get(servicesContext), request);
}
