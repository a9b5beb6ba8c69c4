// The experience context of a bench page's placement `i`, as a server renders it into
// `data-engage-context` (bench/load-time.mjs, bench/insertion.mjs).

/** @param {number} i @param {string} experience */
export const experienceContext = (i, experience) => ({
  cid: `c-${i}`,
  experience,
  svc_locale_id: '0',
  svc_variation_id: '1',
  audience_name: 'All',
  audience_id: '5A',
  type: 'Web Personalization',
});
