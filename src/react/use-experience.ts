import { useEffect, useState } from 'react';
import { ValidationError } from '../errors';
import { observe } from '../tracker/observe';
import type { ExperienceContext } from '../tracker/types';
import { useTracker } from './tracker-context';

let warned = false;

/**
 * Observes the element it is given as a placement: an impression once per page view when half of
 * it is in view for a second, a click on every click inside it (`b_id` from the nearest
 * `data-engage-b-id`). Stops when the element goes or the component unmounts. Runs only in the
 * browser, after hydration: the server renders the element untouched. Under `StrictMode` the
 * effect runs twice; the placement still counts once.
 *
 * @param context the experience context the page received with the content; `null` or
 *   `undefined` observes nothing (say, while it loads)
 * @returns a callback ref for the placement's root element
 * @example
 * function Hero({ experience }) {
 *   const ref = useExperience(experience.context);
 *   return <section ref={ref}>{experience.html}</section>;
 * }
 */
export function useExperience<T extends Element = HTMLElement>(context: ExperienceContext | null | undefined): (element: T | null) => void {
  const tracker = useTracker();
  // State, not a ref object: the effect must see an element that appears (or is replaced) after mount.
  const [element, setElement] = useState<T | null>(null);
  // By value: a context object made anew on each render is the same placement.
  const key = context ? JSON.stringify(context) : '';
  useEffect(() => {
    if (tracker === undefined && !warned) {
      warned = true;
      console.warn(`engage-sdk: ${new ValidationError('EngageProvider', 'must wrap every component that uses useExperience or <Experience>').message}`);
    }
    if (tracker && element && context) return observe(tracker, element, context);
    // `key` stands for `context` in the dependencies.
  }, [tracker, element, key]);
  return setElement;
}
