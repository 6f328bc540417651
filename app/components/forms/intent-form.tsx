import { type FormMetadata, getFormProps } from "@conform-to/react";
import type { ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import { type FormActionData, type FormSchema, useSchemaForm } from "~/lib/forms";
import { FormErrorsScope, keepFocusOnVisibleControls } from "./form-errors";
import { useActionFetcher } from "./use-action-fetcher";

export interface IntentFormOptions<Schema extends FormSchema> {
  /** The action's intent this form posts. */
  intent: string;
  schema: Schema;
  /** Unique on the page (default: the intent). */
  id?: string;
  defaultValue?: Record<string, unknown>;
  onSuccess?: (answer: FormActionData) => void;
}

/**
 * A form on the page (not in a dialog) of the one form pattern: Conform's form for the
 * schema, posted by a fetcher with its intent, the answer's messages beside the fields
 * and its toast. Render it with IntentForm.
 */
export function useIntentForm<Schema extends FormSchema>(options: IntentFormOptions<Schema>) {
  const { intent, schema, defaultValue, onSuccess } = options;
  const { fetcher, answer, lastResult, busy } = useActionFetcher(intent, { onSuccess });
  const [form, fields] = useSchemaForm({ schema, id: options.id ?? intent, lastResult, defaultValue });
  return { intent, fetcher, answer, busy, form, fields };
}

export interface IntentFormProps<Fields extends Record<string, unknown>> {
  state: {
    intent: string;
    fetcher: FetcherWithComponents<FormActionData>;
    form: FormMetadata<Fields, string[]>;
  };
  className?: string;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "data-testid"?: string;
  children: ReactNode;
}

/** The form of useIntentForm: its intent posted with the fields, its own errors (not a field's) first. */
export function IntentForm<Fields extends Record<string, unknown>>({
  state,
  children,
  ...props
}: IntentFormProps<Fields>) {
  const { intent, fetcher, form } = state;
  return (
    <fetcher.Form method="post" {...getFormProps(form)} onFocus={keepFocusOnVisibleControls} {...props}>
      <input type="hidden" name="intent" value={intent} />
      <FormErrorsScope form={form}>{children}</FormErrorsScope>
    </fetcher.Form>
  );
}
