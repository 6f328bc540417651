import { data } from "react-router";
import { formIntent, runFormAction } from "~/lib/form-action.server";
import { Conflict } from "../../../server/errors.ts";
import { retryEmail } from "../../../server/mail/outbox.ts";
import { emailReport } from "../../../server/mail/reports.ts";
import { deleteSubscriber, resendConfirmation } from "../../../server/newsletter/subscribers.ts";
import { addSuppression, removeSuppression } from "../../../server/newsletter/suppression.ts";
import type { AppServices } from "../../../server/services.ts";
import { addSuppressionSchema, recordSchema } from "./schemas";

/**
 * The actions of /admin/newsletter (the caller has checked the admin role). Their
 * toasts are the spec's: a success title and description, and for a failure "Error"
 * with "Failed to delete subscriber." and the like, followed by the reason when known.
 */

const FAILURES = {
  "delete-subscriber": "Failed to delete subscriber.",
  "resend-confirmation": "Failed to resend confirmation email.",
  "remove-suppression": "Failed to remove from suppression list.",
  "add-suppression": "Failed to add to suppression list.",
  "retry-email": "Failed to retry email.",
} as const;

export async function newsletterAction(services: AppServices, formData: FormData) {
  const answer = await runFormAction(
    formData,
    {
      "delete-subscriber": formIntent({
        schema: recordSchema,
        failure: FAILURES["delete-subscriber"],
        async run({ id }) {
          await deleteSubscriber(services.db, id);
          return {
            tone: "success",
            title: "Subscriber deleted",
            description: "The subscriber has been removed successfully.",
          };
        },
      }),
      "resend-confirmation": formIntent({
        schema: recordSchema,
        failure: FAILURES["resend-confirmation"],
        async run({ id }) {
          const outcome = await resendConfirmation(services.db, services, id);
          if (outcome === "not-pending") {
            throw new Conflict("Only a pending subscriber can be sent a confirmation email.");
          }
          if (outcome === "suppressed") {
            throw new Conflict("This address is on the suppression list: remove it from the list first.");
          }
          services.mail.wake();
          return emailReport(services.config.mail, {
            sent: {
              tone: "success",
              title: "Confirmation email sent",
              description: "A new confirmation email has been sent.",
            },
            kept: {
              tone: "success",
              title: "Confirmation email kept in the outbox",
              description: "No SMTP is configured, so no email was sent: its confirmation link is in the server's log.",
            },
          });
        },
      }),
      "remove-suppression": formIntent({
        schema: recordSchema,
        failure: FAILURES["remove-suppression"],
        async run({ id }) {
          await removeSuppression(services.db, id);
          return {
            tone: "success",
            title: "Removed from suppression list",
            description: "The email has been removed from the suppression list.",
          };
        },
      }),
      "add-suppression": formIntent({
        schema: addSuppressionSchema,
        failure: FAILURES["add-suppression"],
        async run({ email, reason }) {
          const added = await addSuppression(services.db, { email, reason: reason || "Added by an administrator" });
          return added.created
            ? {
                tone: "success",
                title: "Added to suppression list",
                description: `${added.email} will not receive any email.`,
              }
            : {
                tone: "success",
                title: "Already suppressed",
                description: `${added.email} is already on the suppression list.`,
              };
        },
      }),
      "retry-email": formIntent({
        schema: recordSchema,
        failure: FAILURES["retry-email"],
        async run({ id }) {
          if (!(await retryEmail(services.db, id))) {
            throw new Conflict("Only a failed or unsent email can be sent again.");
          }
          services.mail.wake();
          return emailReport(services.config.mail, {
            sent: { tone: "success", title: "Email queued", description: "The email will be sent again." },
            kept: {
              tone: "success",
              title: "Email kept in the outbox",
              description: "No SMTP is configured, so it is not sent again: its links are in the server's log.",
            },
          });
        },
      }),
    },
    services.logger,
  );
  const { ok, intent, result } = answer.data;
  if (ok || !Object.hasOwn(FAILURES, intent)) return answer;
  // The refusal's reason: the service's message, else the first field message.
  const reason = Object.values(result.error ?? {})
    .flat()
    .find((message) => typeof message === "string");
  const failure = FAILURES[intent as keyof typeof FAILURES];
  return data(
    {
      ...answer.data,
      toast: { tone: "error", title: "Error", description: reason ? `${failure} ${reason}` : failure },
    },
    answer.init ?? undefined,
  );
}
