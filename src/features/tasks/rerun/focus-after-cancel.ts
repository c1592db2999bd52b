// A question that replaces the button that asked it (Re-run…, More like this…) unmounts that button:
// on Cancel the focus would drop to the page's start. The button asked again gets it back.
import { useEffect, useRef } from 'react';

export function useFocusBackOnCancel<T extends HTMLElement = HTMLButtonElement>() {
  const trigger = useRef<T>(null);
  const pending = useRef(false);
  // After every render: the one that puts the button back is the one that can focus it.
  useEffect(() => {
    if (!pending.current || !trigger.current) return;
    pending.current = false;
    trigger.current.focus();
  });
  return {
    /** The asking button's ref. */
    trigger,
    /** Call on Cancel, before the button is shown again. */
    cancelled: () => {
      pending.current = true;
    },
  };
}
