import { useEffect, useRef } from 'react';

/**
 * After each new `trigger` (a submit's problems or answer), moves focus inside the returned ref's element: to the first
 * invalid control, else to the first alert or status message, so keyboard and screen-reader users land on what changed.
 */
export function useFocusAfter<T extends HTMLElement>(trigger: unknown) {
  const container = useRef<T>(null);
  useEffect(() => {
    if (!trigger) return;
    const root = container.current;
    const target = root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? root?.querySelector<HTMLElement>('[role="alert"], [role="status"]');
    if (target && !target.matches('input, select, textarea, button, a')) target.tabIndex = -1;
    target?.focus();
  }, [trigger]);
  return container;
}
