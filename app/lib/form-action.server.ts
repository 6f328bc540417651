import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import type { FeedbackMessage } from "~/components/auth/feedback";
import { describeError } from "../../server/errors.ts";
import type { Logger } from "../../server/logger.ts";
import type { FormActionData } from "./forms";

/**
 * The server half of the admin's one form pattern: the action reads the form's
 * `intent`, parses the form with that intent's zod schema (the same one the browser
 * used), runs the service, and answers with Conform's result and the spec's toast.
 * Services throw AppError (server/errors.ts); describeError() picks the status and
 * the message, shown as "{failure}: {message}" and next to the fields it names.
 */

export interface FormIntent<Schema extends z.ZodType = z.ZodType> {
  schema: Schema;
  /**
   * The failure toast: a string is its start ("Failed to update chapter": the message
   * follows); `{ title, unexpected }` is a title with the message as its description, or
   * `unexpected` alone when the error is not one a person can act on (the spec's image
   * toasts: "Delete failed" with the reason, or "Failed to delete image").
   */
  failure: string | { title: string; unexpected: string };
  /** Does the work; returns the success toast ("Chapter updated successfully!"). */
  run(value: z.output<Schema>): Promise<string | FeedbackMessage>;
  /** Whether the form goes back to its default values after success (default: true). */
  resetOnSuccess?: boolean;
}

/** Declares an intent (keeps the schema and the value given to run() in step for TypeScript). */
export function formIntent<Schema extends z.ZodType>(intent: FormIntent<Schema>): FormIntent<Schema> {
  return intent;
}

export const UNKNOWN_FORM_MESSAGE = "The form was not understood. Please reload the page and try again.";

/** Answers a form post for one of `intents`; anything else is a 400. */
export async function runFormAction(
  formData: FormData,
  intents: Record<string, FormIntent>,
  logger: Logger,
): Promise<ReturnType<typeof data<FormActionData>>> {
  const intentName = formData.get("intent");
  const intent = typeof intentName === "string" && Object.hasOwn(intents, intentName) ? intents[intentName] : undefined;
  if (!intent || typeof intentName !== "string") {
    const submission = parseWithZod(formData, { schema: unknownForm });
    return data(
      {
        intent: typeof intentName === "string" ? intentName.slice(0, 100) : "",
        ok: false,
        result: submission.reply({ formErrors: [UNKNOWN_FORM_MESSAGE] }),
        toast: { tone: "error", title: UNKNOWN_FORM_MESSAGE },
      },
      { status: 400 },
    );
  }

  const submission = parseWithZod(formData, { schema: intent.schema });
  if (submission.status !== "success") {
    return data(
      {
        intent: intentName,
        ok: false,
        result: submission.reply(),
        toast: failureToast(intent.failure, firstError(submission) ?? UNKNOWN_FORM_MESSAGE, true),
      },
      { status: 400 },
    );
  }

  try {
    const success = await intent.run(submission.value);
    const toast: FeedbackMessage = typeof success === "string" ? { tone: "success", title: success } : success;
    return data({
      intent: intentName,
      ok: true,
      result: submission.reply({ resetForm: intent.resetOnSuccess ?? true }),
      toast,
    });
  } catch (error) {
    const described = describeError(error);
    if (!described.expected) logger.error({ err: error, intent: intentName }, "form action failed");
    const fieldErrors = Object.fromEntries(
      Object.entries(described.fields).map(([field, message]) => [field, [message]]),
    );
    return data(
      {
        intent: intentName,
        ok: false,
        result: submission.reply({ formErrors: [described.message], fieldErrors }),
        toast: failureToast(intent.failure, described.message, described.expected),
      },
      { status: described.status },
    );
  }
}

function failureToast(failure: FormIntent["failure"], message: string, expected: boolean): FeedbackMessage {
  if (typeof failure === "string") return { tone: "error", title: `${failure}: ${message}` };
  return expected
    ? { tone: "error", title: failure.title, description: message }
    : { tone: "error", title: failure.unexpected };
}

/** Reads no field: only used to build the reply to an unknown intent. */
const unknownForm = z.object({});

function firstError(submission: Submission<unknown>): string | undefined {
  const errors = submission.status === "error" ? Object.values(submission.error ?? {}) : [];
  return errors.flat().find((message): message is string => typeof message === "string");
}
