// The experience contexts the three apps' pages show, as a server would have returned them with
// the content: the layout's header banner (every page), the home hero, a placement below the
// fold of the home page, and the product pages' upsell.
const placement = (cid, experience) => ({
  cid,
  experience,
  svc_locale_id: 'en',
  svc_variation_id: '1',
  audience_name: 'All shoppers',
  audience_id: 'all',
  type: 'Web Personalization',
});

export const placements = {
  layout: placement('c-layout', 'Header banner'),
  hero: placement('c-hero', 'Home hero'),
  below: placement('c-below', 'Recommended for you'),
  product: placement('c-product', 'Product upsell'),
};
