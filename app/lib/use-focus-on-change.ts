import { useEffect, useRef } from "react";

/**
 * A ref for a container (give it tabIndex={-1}) that takes the focus whenever `state`
 * changes after the first render. For a page whose control goes away once used (a
 * button replaced by a spinner, then by the outcome): the focus would otherwise fall to
 * the document, and a keyboard user would start again from the top.
 */
export function useFocusOnChange<Element extends HTMLElement>(state: string) {
  const ref = useRef<Element>(null);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of state, by design.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [state]);
  return ref;
}
