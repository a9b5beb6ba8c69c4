import { createElement, type HTMLAttributes, type JSX, type ReactNode } from 'react';
import type { ExperienceContext } from '../tracker/types';
import { useExperience } from './use-experience';

export interface ExperienceProps extends HTMLAttributes<HTMLElement> {
  /** The experience context the page received with the content; `null`/`undefined` observes nothing. */
  context: ExperienceContext | null | undefined;
  /** The element rendered around the content. @default 'div' */
  as?: keyof JSX.IntrinsicElements;
  children?: ReactNode;
}

/**
 * A placement: renders `as` (a `div` by default) with the other props and observes it with
 * `useExperience`. Adds no attribute of its own, so server and client render the same markup.
 *
 * @example
 * <Experience context={hero.context} className="hero">
 *   <h2>{hero.title}</h2>
 *   <a href="/sale" data-engage-b-id="shop-now">Shop now</a>
 * </Experience>
 */
export function Experience({ context, as = 'div', ...props }: ExperienceProps) {
  return createElement(as, { ...props, ref: useExperience(context) });
}
