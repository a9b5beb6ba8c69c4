// A React 19 page whose consent manager has not answered yet: the tracker starts pending, and the
// consent reaches it through EngageProvider's `consent` prop, from the app's state
// (`window.setConsent` stands in for the consent manager's callback). `?ns=` sets the namespace.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createTracker } from 'engage-sdk';
import { EngageProvider, Experience } from 'engage-sdk/react';
import { placements } from './placements.js';

const tracker = createTracker({
  endpoint: '/engage',
  customerId: 'shopper-1',
  flushInterval: 500,
  consent: 'pending',
  namespace: new URLSearchParams(location.search).get('ns') ?? 'react-consent',
});

// Every call the placements make, with its answer (a UUID, or null when nothing was recorded).
window.calls = [];
for (const method of ['shown', 'clicked']) {
  const original = tracker[method];
  tracker[method] = (context, attributes) => {
    const uuid = original(context, attributes);
    window.calls.push({ method, experience: context.experience, uuid: uuid ?? null });
    return uuid;
  };
}

function App() {
  const [consent, setConsent] = useState(/** @type {import('engage-sdk').ConsentState} */ ('pending'));
  useEffect(() => {
    window.setConsent = setConsent;
    window.appReady = true;
  }, []);
  return (
    <EngageProvider tracker={tracker} consent={consent}>
      <Experience context={placements.layout} className="placement" style={{ height: 120 }}>Free delivery this week</Experience>
      <Experience context={placements.hero} as="section" className="placement" style={{ height: 120 }}>
        <h1>Winter sale</h1>
        <button id="cta" type="button" data-engage-b-id="hero-cta">Shop the sale</button>
      </Experience>
      <Experience context={placements.product} className="placement" style={{ height: 120 }}>Buy both and save</Experience>
    </EngageProvider>
  );
}

// @ts-expect-error -- index.html has #root.
createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
