// Which tracker the components below record into: given once, at the top of the app.
import { createContext, createElement, type ReactNode, useContext, useEffect, useRef } from 'react';
import type { ConsentState, Tracker } from '../tracker/types';

// undefined: no provider above (a mistake, reported); null: a provider without a tracker yet (the
// server, or a client that has not made one), which observes nothing and says nothing.
const TrackerContext = /* @__PURE__ */ createContext<Tracker | null | undefined>(undefined);

export interface EngageProviderProps {
  /** The app's tracker; `null` or `undefined` while there is none (on the server). */
  tracker: Tracker | null | undefined;
  /**
   * The visitor's consent, as your consent manager says it: passed to `tracker.consent()` whenever
   * it changes. `null`/`undefined` leave the tracker's own (its `consent` option) as it is.
   */
  consent?: ConsentState | null;
  /**
   * The signed-in customer, as your session says it. A new value calls `tracker.identify()`; a
   * value that becomes `null` or `undefined` is a sign-out and calls `tracker.reset()` (in every
   * tab: see its doc). `null`/`undefined` from the start change nothing, so a tracker made with its
   * own `customerId` option keeps it. Leave the prop out to call `identify`/`reset` yourself.
   */
  customerId?: string | null;
  children?: ReactNode;
}

/**
 * Gives the components below it the tracker their placements record into.
 *
 * @example
 * const tracker = typeof window === 'undefined' ? null : createTracker({ endpoint: '/engage', consent: 'pending' });
 * root.render(<EngageProvider tracker={tracker} consent={cmpConsent} customerId={session?.userId}><App /></EngageProvider>);
 */
export function EngageProvider({ tracker, consent, customerId, children }: EngageProviderProps) {
  useEffect(() => {
    if (tracker && consent) tracker.consent(consent);
  }, [tracker, consent]);
  // The customer this tracker was last given here: only a customer that goes away is a sign-out.
  const given = useRef(customerId);
  useEffect(() => {
    if (customerId) tracker?.identify(customerId);
    else if (given.current) tracker?.reset();
    given.current = customerId;
  }, [tracker, customerId]);
  return createElement(TrackerContext.Provider, { value: tracker ?? null }, children);
}

/**
 * The tracker of the nearest `EngageProvider` (for `identify`, `flush`, your own `shown`/`clicked`):
 * `null` where there is none yet, `undefined` without a provider.
 */
export function useTracker(): Tracker | null | undefined {
  return useContext(TrackerContext);
}
