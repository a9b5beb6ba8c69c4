// The experience context a page received with its experience, as the start-up pages record it
// (early-close.html, delivery-code.html): `experienceContext(cid)`.
window.experienceContext = (cid) => ({
  cid,
  experience: 'Hero',
  svc_locale_id: '0',
  svc_variation_id: '2',
  audience_name: 'All',
  audience_id: '5A',
  type: 'Web Personalization',
});
