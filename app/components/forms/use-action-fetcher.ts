import { useEffect } from "react";
import { useFetcher } from "react-router";
import { type FormActionData, isFormActionData } from "~/lib/forms";

/**
 * A fetcher for one intent of the page's action: the admin's forms submit without a
 * navigation, so a dialog stays open on an error and keeps what the person typed.
 * Calls onSuccess after a success; the route's clientAction shows the answer's toast.
 */
export function useActionFetcher(intent: string, options: { onSuccess?: (data: FormActionData) => void } = {}) {
  const fetcher = useFetcher<FormActionData>();
  const answer = isFormActionData(fetcher.data) && fetcher.data.intent === intent ? fetcher.data : undefined;
  const { onSuccess } = options;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per answer, whatever the callback's identity.
  useEffect(() => {
    if (answer?.ok) onSuccess?.(answer);
  }, [answer]);
  return { fetcher, answer, lastResult: answer?.result, busy: fetcher.state !== "idle" };
}
