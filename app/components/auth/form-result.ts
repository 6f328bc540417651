import type { FeedbackMessage } from "./feedback";

/** What an auth form's action answers when it does not redirect. */
export interface FormResult<Field extends string = string> {
  message?: FeedbackMessage;
  fieldErrors?: Partial<Record<Field, string>>;
  /** What was typed (never passwords), to fill the form again when there is no JavaScript. */
  values?: Partial<Record<Field, string>>;
}

/** A text value of a form, trimmed ("" when absent or not text). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** A password as typed (never trimmed: spaces are part of it). */
export function formPassword(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
