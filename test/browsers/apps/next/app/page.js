// The home page, rendered on the server: its placements are in the HTML before any script runs.
import { Experience } from 'engage-sdk/react';
import { placements } from './placements.js';

export default function Home() {
  return (
    <main data-page="home">
      <Experience context={placements.hero} as="section" className="placement">
        <h1>Winter sale</h1>
        <button id="hero-cta" type="button" data-engage-b-id="hero-cta">Shop the sale</button>
      </Experience>
      <div className="spacer" />
      <Experience context={placements.below} id="below" className="placement">Recommended for you</Experience>
    </main>
  );
}
