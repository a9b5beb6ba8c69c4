import Link from 'next/link';
import { Experience } from 'engage-sdk/react';
import { placements } from '../../placements.js';

export default async function Product({ params }) {
  const { id } = await params;
  return (
    <main data-page={`product-${id}`}>
      <h1>Product {id}</h1>
      <Experience context={placements.product} className="placement">Buy both and save</Experience>
      <Link id="to-reviews" href="#reviews">Reviews</Link> <Link id="to-details" href={`/product/${id}?tab=details`}>Details</Link>
      <section id="reviews">No reviews yet.</section>
    </main>
  );
}
