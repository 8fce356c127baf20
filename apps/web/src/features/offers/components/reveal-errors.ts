import { useEffect, useRef, useState } from 'react';

/**
 * After a failed submit, brings the first problem into view and gives it focus: the error list, or
 * the first field marked invalid. On a phone the form is taller than the screen, and a message
 * nobody sees does not help.
 */
export function useRevealErrors<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!tick || !ref.current) return;
    const target = ref.current.querySelector<HTMLElement>('.form-errors, [aria-invalid="true"]');
    if (!target) return;
    target.scrollIntoView?.({ block: 'center' });
    if (target.classList.contains('form-errors') || target.matches('input, select, textarea')) target.focus({ preventScroll: true });
  }, [tick]);
  return { ref, reveal: () => setTick((n) => n + 1) };
}
