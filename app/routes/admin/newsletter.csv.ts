import { servicesContext } from "~/context";
import { requireApiRole } from "../../../server/auth/guards.ts";
import { methodNotAllowed } from "../../../server/errors.ts";
import { subscribersCsv } from "../../../server/newsletter/admin.ts";
import type { Route } from "./+types/newsletter.csv";

/**
 * GET /api/admin/newsletter/export.csv (admins only): every subscriber as a CSV file.
 * A resource route outside the admin layout (whose guard answers with HTML pages), so
 * it checks the session and the admin role itself: 401 without a session, 403 without
 * the admin role, like every /api/admin endpoint.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireApiRole(services, request, "admin");
  const csv = await subscribersCsv(services.db);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="newsletter-subscribers-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** Nothing to post here: the same 401/403 first, then 405. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireApiRole(context.get(servicesContext), request, "admin");
  return methodNotAllowed("GET, HEAD");
}
