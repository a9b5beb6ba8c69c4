// The ESM page: the same store, with the tracker from the ESM build (as a bundler would include
// it) and placements rendered by script, as a single-page app does after fetching its experiences.
import * as sdk from '/demo/build/engage.js';
import { experiences } from '/demo/experiences.js';
import { createPanel } from '/demo/panel.js';

const panel = createPanel({ label: 'ESM build', flush: () => tracker.flush() });
const tracker = sdk.createTracker({
  endpoint: '/engage',
  customerId: 'demo-shopper-2',
  flushInterval: 2_000,
  onError: (error) => panel.error(error),
});
panel.watch(tracker);
window.tracker = tracker;
// The inspection mode, as a bundled app loads it: lazily, only when asked for.
if (new URLSearchParams(location.search).has('engage-inspect'))
  import('/demo/build/inspect.js').then(
    ({ inspect }) => inspect(tracker),
    (error) => console.warn('engage-sdk demo: the inspector did not load', error),
  );

const content = {
  hero: () => [el('p', 'eyebrow', 'Welcome back'), el('h1', '', 'Winter Sale: 30% off outerwear'), button('hero-shop-sale', 'Shop the sale')],
  recommendations: () => [
    el('h2', '', 'Recommended for you'),
    grid([
      ['Alpine Boots', 2, 'rec-add-boots'],
      ['Storm Parka', 4, 'rec-add-parka'],
      ['Cashmere Scarf', 1, 'rec-add-scarf'],
    ]),
  ],
  shipping: () => [el('p', '', 'Free shipping on your first order over €50.'), button('ship-learn-more', 'Learn more')],
};

function el(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text) element.textContent = text;
  return element;
}
function button(bId, text) {
  const element = el('button', '', text);
  element.dataset.engageBId = bId;
  return element;
}
function grid(items) {
  const list = el('ul', 'grid small');
  for (const [name, thumb, bId] of items) {
    const item = el('li', 'product');
    item.append(el('div', `thumb thumb-${thumb}`), el('h3', '', name), button(bId, 'Add to cart'));
    list.append(item);
  }
  return list;
}

// observe() (viewability, its own export taking the tracker) counts an impression after 1 s at
// ≥50% visibility, and every click inside, with b_id.
for (const { placement, context } of experiences) {
  const section = el('section', `placement ${placement}`);
  section.id = placement;
  section.append(...content[placement]());
  /** @type {HTMLElement} */ (document.getElementById(`${placement}-slot`)).append(section);
  sdk.observe(tracker, section, context);
}
document.documentElement.dataset.demoReady = 'true';
