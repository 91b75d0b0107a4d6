/**
 * Roving tabindex: a group of buttons (an answer's citation chips, its reference cards) is one Tab stop; the arrow
 * keys, Home and End move inside it. Only the group's current item has `tabindex="0"`, the others `-1`, so Tab leaves
 * the group at once instead of visiting every chip (a long conversation had ~290 Tab stops before the question box).
 * Items are found in the container's DOM by a selector, so chips rendered deep inside Markdown take part too.
 */
import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

/** The keys that move inside a group, and where each moves to from item `at` of `count`. */
export function rovingTarget(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (at + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * Make the items matching `selector` inside `container` one Tab stop. Returns the container's key handler (put it on
 * the container as `onKeyDown`). The current item is the last one focused, else the first; every render re-applies
 * the tabindex, so items added while an answer streams join the group.
 */
export function useRoving(container: RefObject<HTMLElement | null>, selector: string) {
  const current = useRef(0);
  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    const items = [...root.querySelectorAll<HTMLElement>(selector)];
    if (current.current >= items.length) current.current = 0;
    items.forEach((el, i) => (el.tabIndex = i === current.current ? 0 : -1));
    const onFocus = (e: FocusEvent) => {
      const at = items.indexOf(e.target as HTMLElement);
      if (at < 0) return;
      current.current = at;
      items.forEach((el, i) => (el.tabIndex = i === at ? 0 : -1));
    };
    root.addEventListener('focusin', onFocus);
    return () => root.removeEventListener('focusin', onFocus);
  });
  return (e: KeyboardEvent<HTMLElement>) => {
    const root = container.current;
    if (!root) return;
    const items = [...root.querySelectorAll<HTMLElement>(selector)];
    const at = items.indexOf(e.target as HTMLElement);
    if (at < 0) return;
    const next = rovingTarget(e.key, at, items.length);
    if (next === null) return;
    e.preventDefault();
    items[next]!.focus();
  };
}
