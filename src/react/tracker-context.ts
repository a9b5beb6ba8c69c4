// Which tracker the components below record into: given once, at the top of the app.
import { createContext, createElement, type ReactNode, useContext, useEffect } from 'react';
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
  children?: ReactNode;
}

/**
 * Gives the components below it the tracker their placements record into.
 *
 * @example
 * const tracker = typeof window === 'undefined' ? null : createTracker({ endpoint: '/engage', consent: 'pending' });
 * root.render(<EngageProvider tracker={tracker} consent={cmpConsent}><App /></EngageProvider>);
 */
export function EngageProvider({ tracker, consent, children }: EngageProviderProps) {
  useEffect(() => {
    if (tracker && consent) tracker.consent(consent);
  }, [tracker, consent]);
  return createElement(TrackerContext.Provider, { value: tracker ?? null }, children);
}

/**
 * The tracker of the nearest `EngageProvider` (for `identify`, `flush`, your own `shown`/`clicked`):
 * `null` where there is none yet, `undefined` without a provider.
 */
export function useTracker(): Tracker | null | undefined {
  return useContext(TrackerContext);
}
