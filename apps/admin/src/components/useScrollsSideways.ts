import { useEffect, useRef, useState } from 'react';

/**
 * Whether the returned ref's element is narrower than its content, so that it scrolls sideways. Checked again whenever
 * the element or its first child (a table whose rows change) changes size.
 */
export function useScrollsSideways<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const check = () => setScrolls(box.scrollWidth > box.clientWidth);
    const observer = new ResizeObserver(check);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return [ref, scrolls] as const;
}
