import { servicesContext } from "~/context";
import { requireApiRole } from "../../../server/auth/guards.ts";
import { describeError, methodNotAllowed } from "../../../server/errors.ts";
import { sendTestEmail, testEmailMessage } from "../../../server/newsletter/test-email.ts";
import { readJsonObject } from "../../../server/validation.ts";
import type { Route } from "./+types/newsletter-test-email";

/**
 * POST /api/newsletter/test-email (admins only) with the spec's test email
 * payload {email, post_title, post_summary, post_image, post_url, post_type}:
 * 200 {success, message} (the message says whether SMTP sent the email or it stayed in
 * the outbox), or {success: false, error} with the refusal's status (400 for a bad
 * payload). GET only answers 405.
 */

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiRole(context.get(servicesContext), request, "admin");
  return methodNotAllowed("POST");
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const services = context.get(servicesContext);
  await requireApiRole(services, request, "admin");
  try {
    await sendTestEmail(services.db, services, await readJsonObject(request));
  } catch (error) {
    const refusal = describeError(error);
    if (!refusal.expected) throw error;
    return Response.json({ success: false, error: refusal.message }, { status: refusal.status, headers: NO_STORE });
  }
  services.mail.wake();
  return Response.json({ success: true, message: testEmailMessage(services.config.mail) }, { headers: NO_STORE });
}
