// A site's own client-side navigation, with no framework and no line of engage-sdk code: links
// marked data-link change the URL with pushState and the page redraws <main>; the back and
// forward buttons redraw it from popstate. The script tag's tracker follows by itself.
import { placements } from './placements.js';

const context = (name) => JSON.stringify(placements[name]).replaceAll('"', '&quot;');
/** @type {HTMLElement} */ (document.getElementById('banner')).setAttribute('data-engage-context', JSON.stringify(placements.layout));

const pages = {
  home: () => `<main data-page="home">
    <section class="placement" data-engage-context="${context('hero')}">
      <h1>Winter sale</h1>
      <button id="hero-cta" type="button" data-engage-b-id="hero-cta">Shop the sale</button>
    </section>
    <div class="spacer"></div>
    <div id="below" class="placement" data-engage-context="${context('below')}">Recommended for you</div>
  </main>`,
  product: (id) => `<main data-page="product-${id}">
    <h1>Product ${id}</h1>
    <div class="placement" data-engage-context="${context('product')}">Buy both and save</div>
    <a id="to-reviews" href="#reviews">Reviews</a> <a id="to-details" href="/product/${id}?tab=details" data-link>Details</a>
    <section id="reviews">No reviews yet.</section>
  </main>`,
  cart: () => '<main data-page="cart"><h1>Your cart</h1></main>',
};

function render() {
  const product = /^\/product\/(\w+)$/.exec(location.pathname);
  const html = product ? pages.product(product[1]) : location.pathname === '/cart' ? pages.cart() : pages.home();
  /** @type {HTMLElement} */ (document.querySelector('main')).outerHTML = html;
}

document.addEventListener('click', (event) => {
  const link = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (event.target).closest('a[data-link]'));
  if (!link || event.metaKey || event.ctrlKey) return;
  event.preventDefault();
  history.pushState(null, '', link.href);
  render();
  scrollTo(0, 0);
});
addEventListener('popstate', render);
render();
