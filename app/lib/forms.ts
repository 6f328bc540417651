import { type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { FeedbackMessage } from "~/components/auth/feedback";

/**
 * The one form pattern of the admin (docs/decisions/012-admin-kit-and-forms.md): a zod schema
 * per form, read with Conform's parseWithZod both here in the browser (field messages
 * beside the fields as the person types) and again by the action on the server
 * (app/lib/form-action.server.ts), which always re-checks.
 */

/** What every admin form action answers: Conform's result for the form, and the toast to show. */
export interface FormActionData {
  intent: string;
  ok: boolean;
  result: SubmissionResult<string[]>;
  toast: FeedbackMessage;
}

export function isFormActionData(value: unknown): value is FormActionData {
  const candidate = value as Partial<FormActionData> | null | undefined;
  return typeof candidate?.intent === "string" && typeof candidate.ok === "boolean" && Boolean(candidate.toast);
}

/** A form's schema: an object of fields (what FormData holds). */
export type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface SchemaFormOptions<Schema extends FormSchema> {
  schema: Schema;
  /** The form's id: unique on the page (the intent plus the item's id, say). */
  id: string;
  /** The action's answer to this form's last submission, if any. */
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, unknown>;
}

/** Conform's useForm bound to a zod schema: validates on blur, then on every input once shown. */
export function useSchemaForm<Schema extends FormSchema>({
  schema,
  id,
  lastResult,
  defaultValue,
}: SchemaFormOptions<Schema>) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}
