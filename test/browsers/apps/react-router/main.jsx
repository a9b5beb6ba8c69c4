// A React 19 + React Router 7 shop, wired to engage-sdk as the React guide says: one tracker, an
// EngageProvider at the top, <Experience> around each placement. Nothing router-specific.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Outlet, RouterProvider, ScrollRestoration, useParams } from 'react-router';
import { createTracker } from 'engage-sdk';
import { EngageProvider, Experience } from 'engage-sdk/react';
import { placements } from './placements.js';
import './app.css';

const tracker = createTracker({ endpoint: '/engage', customerId: 'shopper-1', flushInterval: 500 });

function Layout() {
  return (
    <>
      <header>
        <Experience context={placements.layout} className="placement banner">Free delivery this week</Experience>
        <nav>
          <Link id="to-home" to="/">Home</Link>
          <Link id="to-product-1" to="/product/1">Product 1</Link>
          <Link id="to-product-2" to="/product/2">Product 2</Link>
          <Link id="to-cart" to="/cart">Cart</Link>
          <a id="to-about" href="/about.html">About</a>
        </nav>
      </header>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

function Home() {
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

function Product() {
  const { id } = useParams();
  return (
    <main data-page={`product-${id}`}>
      <h1>Product {id}</h1>
      <Experience context={placements.product} className="placement">Buy both and save</Experience>
      <Link id="to-reviews" to="#reviews">Reviews</Link> <Link id="to-details" to="?tab=details">Details</Link>
      <section id="reviews">No reviews yet.</section>
    </main>
  );
}

const Cart = () => <main data-page="cart"><h1>Your cart</h1></main>;

const router = createBrowserRouter([
  { path: '/', element: <Layout />, children: [
    { index: true, element: <Home /> },
    { path: 'product/:id', element: <Product /> },
    { path: 'cart', element: <Cart /> },
  ] },
]);

// @ts-expect-error -- index.html has #root. JavaScript has no `!`, and a cast would change the line
// docs/single-page-apps.md quotes (test/docs/excerpts.test.ts), as React's own docs write it.
createRoot(document.getElementById('root')).render(
  <StrictMode>
    <EngageProvider tracker={tracker}>
      <RouterProvider router={router} />
    </EngageProvider>
  </StrictMode>,
);
