// The root layout of a Next.js App Router shop: a server component; the header banner is a
// placement on every page (<Experience> is a client component of engage-sdk/react).
import Link from 'next/link';
import Script from 'next/script';
import { Experience } from 'engage-sdk/react';
import { placements } from './placements.js';
import { Providers } from './providers.js';
import './app.css';

export const metadata = { title: 'Shop (Next.js)' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        <Script src="/spy.js" strategy="beforeInteractive" />
        <Providers>
          <header>
            <Experience context={placements.layout} className="placement banner">Free delivery this week</Experience>
            <nav>
              <Link id="to-home" href="/">Home</Link>
              <Link id="to-product-1" href="/product/1">Product 1</Link>
              <Link id="to-product-2" href="/product/2">Product 2</Link>
              <Link id="to-cart" href="/cart">Cart</Link>
              <a id="to-about" href="/about.html">About</a>
            </nav>
          </header>
          {children}
        </Providers>
      </body>
    </html>
  );
}
