import { useEffect, useState } from 'react';

/** The value, settled for `ms`; the first value is used at once so a first visit does not wait. */
export function useDebounced<T>(value: T, ms: number, isEqual: (a: T, b: T) => boolean = Object.is): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (isEqual(settled, value)) return;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms, settled, isEqual]);
  return isEqual(settled, value) ? value : settled;
}
