import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import type { AccountActionResult, AccountIntent } from "../../../server/auth/account.ts";

/** The action's result, when it answers one of these forms. */
export type ActionResult = AccountActionResult | undefined;

export function resultFor(result: ActionResult, ...intents: AccountIntent[]): AccountActionResult | undefined {
  return result && intents.includes(result.intent as AccountIntent) ? result : undefined;
}

/** True while a form with this intent (and target, when given) is being submitted. */
export function usePending(intent: AccountIntent, targetId?: string): boolean {
  const navigation = useNavigation();
  const formData = navigation.formData;
  if (navigation.state !== "submitting" || !formData) return false;
  if (formData.get("intent") !== intent) return false;
  if (targetId === undefined) return true;
  return formData.get("sessionId") === targetId || formData.get("passkeyId") === targetId;
}

export interface IntentFormProps {
  intent: AccountIntent;
  children: ReactNode;
  className?: string;
  /** The form's accessible name, for pages with several similar forms. */
  "aria-label"?: string;
  "aria-labelledby"?: string;
  testId?: string;
}

/**
 * A form of the account page: posts to its action with its intent, keeps the scroll
 * position, and works without JavaScript (a plain POST).
 */
export function IntentForm({ intent, children, className, testId, ...aria }: IntentFormProps) {
  return (
    <Form method="post" preventScrollReset className={className} data-testid={testId} {...aria}>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

/** The outcome line of a form. */
export function ResultMessage({ result, testId }: { result: AccountActionResult | undefined; testId?: string }) {
  if (!result) return null;
  return (
    <Alert tone={result.ok ? "success" : "error"} testId={testId}>
      {result.message}
    </Alert>
  );
}

/**
 * "21 Nov 2026, 14:03 UTC": the same text on the server and in the browser (a locale
 * or time-zone dependent format would differ between the two and break hydration).
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "unknown";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "unknown";
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** A <time> element with the ISO value for machines and the fixed format for people. */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  return iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : <span>unknown</span>;
}
