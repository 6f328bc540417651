import type { FormMetadata } from "@conform-to/react";
import { createContext, type FocusEvent, type ReactNode, use, useCallback, useEffect, useState } from "react";

/**
 * A form's own errors (a stale revision, a failure of the service) in a box above its
 * fields. The action answers a refusal both as the form's error and beside the field
 * it names, if any; the field may be shown (then the message stands beside it) or not
 * (a hidden id: then only the box says it). Fields tell the scope they are shown, so
 * the box leaves out what is already beside a field.
 */

const ShownFieldsContext = createContext<((name: string) => () => void) | null>(null);

/** Called by every field that shows its own errors. */
export function useShownField(name: string): void {
  const register = use(ShownFieldsContext);
  useEffect(() => register?.(name), [register, name]);
}

export function FormErrorsScope<Fields extends Record<string, unknown>>({
  form,
  children,
}: {
  form: FormMetadata<Fields, string[]>;
  children: ReactNode;
}) {
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set());
  const register = useCallback((name: string) => {
    setShown((names) => (names.has(name) ? names : new Set(names).add(name)));
    return () =>
      setShown((names) => {
        const rest = new Set(names);
        rest.delete(name);
        return rest;
      });
  }, []);
  const beside = new Set([...shown].flatMap((name) => form.allErrors[name] ?? []));
  const errors = (form.errors ?? []).filter((message) => !beside.has(message));
  return (
    <ShownFieldsContext value={register}>
      {errors.length > 0 && (
        <div
          id={form.errorId}
          role="alert"
          data-testid="form-errors"
          className="rounded-md border border-danger/60 px-3 py-2 text-sm text-danger"
        >
          {errors.join(" ")}
        </div>
      )}
      {children}
    </ShownFieldsContext>
  );
}

/**
 * The onFocus of every admin form. After a refusal, Conform focuses the first control of
 * the form whose name holds errors. The form's own errors (a stale save, an item gone)
 * are under the name "", which every unnamed control has: the first is the native select
 * or checkbox that Radix's Select and Switch keep in a form, out of sight and aria-hidden,
 * so the focus went where nothing is seen or read. A field's errors may likewise focus
 * the hidden select Conform keeps for a custom control. Such a focus goes to the field's
 * visible control, or, for the form's own errors (read out by the alert above the
 * fields), back where it was: the submit button.
 */
export function keepFocusOnVisibleControls(event: FocusEvent<HTMLFormElement>): void {
  const target = event.target;
  if (!(target instanceof HTMLSelectElement || target instanceof HTMLInputElement)) return;
  if (target.getAttribute("aria-hidden") !== "true") return;
  const form = event.currentTarget;
  const control = target.name ? document.getElementById(`${form.id}-${target.name}`) : null;
  const previous = event.relatedTarget instanceof HTMLElement ? event.relatedTarget : null;
  const next = control && control !== target ? control : previous?.isConnected ? previous : null;
  if (next) next.focus();
  else target.blur();
}
