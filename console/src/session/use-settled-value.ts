// A value once it has stopped changing for a moment: what a person has finished typing, so that a
// lookup runs once per pause rather than once per key.
import { useEffect, useState } from 'react';

export function useSettledValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
