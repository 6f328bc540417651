import { data } from "react-router";
import type { runFormAction } from "~/lib/form-action.server";
import type { FormActionData } from "~/lib/forms";

type FormAnswer = Awaited<ReturnType<typeof runFormAction>>;

/**
 * runFormAction's answer with what the page shows once after a success (an invitation
 * link, backup codes, a token: never stored, so never in a loader's data) and headers
 * of its own (the cookies Better Auth rotated). The status stays the answer's.
 */
export function withDetails<Details extends object>(answer: FormAnswer, details: Details, headers?: HeadersInit) {
  const merged = new Headers(answer.init?.headers);
  for (const [name, value] of new Headers(headers)) merged.append(name, value);
  const shown: Partial<Details> = answer.data.ok ? details : {};
  return data<FormActionData & Partial<Details>>({ ...answer.data, ...shown }, { ...answer.init, headers: merged });
}
