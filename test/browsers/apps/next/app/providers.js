'use client';
// One tracker for the app, made in the browser only: on the server the provider has none, and the
// placements render their markup untouched.
import { createTracker } from 'engage-sdk';
import { EngageProvider } from 'engage-sdk/react';

const tracker = typeof window === 'undefined' ? null : createTracker({ endpoint: '/engage', customerId: 'shopper-1', flushInterval: 500 });

export function Providers({ children }) {
  return <EngageProvider tracker={tracker}>{children}</EngageProvider>;
}
