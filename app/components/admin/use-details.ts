import { type KeyboardEvent, type SyntheticEvent, useCallback, useEffect, useRef, useState } from "react";

/**
 * Progressive enhancement of a <details> disclosure (it opens and closes without
 * JavaScript): with JavaScript it also closes on Escape (focus back on its summary),
 * on a click outside it, and when close() is called (e.g. after a link click).
 */
export function useDetails() {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open) return;
    function closeOnOutsideClick(event: PointerEvent) {
      const details = ref.current;
      const target = event.target as Element | null;
      // A backdrop inside the <details> marks itself data-details-outside.
      const outside = !details?.contains(target) || Boolean(target?.closest("[data-details-outside]"));
      if (details && outside) details.open = false;
    }
    document.addEventListener("pointerdown", closeOnOutsideClick);
    return () => document.removeEventListener("pointerdown", closeOnOutsideClick);
  }, [open]);

  const close = useCallback(() => {
    if (ref.current) ref.current.open = false;
  }, []);

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDetailsElement>) => {
    const details = ref.current;
    if (event.key !== "Escape" || !details?.open) return;
    event.preventDefault();
    details.open = false;
    details.querySelector("summary")?.focus();
  }, []);

  const onToggle = useCallback((event: SyntheticEvent<HTMLDetailsElement>) => setOpen(event.currentTarget.open), []);

  return { ref, open, close, detailsProps: { ref, onKeyDown, onToggle } };
}
