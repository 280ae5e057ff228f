import { useEffect, useState } from 'react';

/**
 * `value` once it has stopped changing for `delayMs` (spec part 2 section 9: searches wait 300 ms),
 * so typing a name asks the server once, not once per key.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
