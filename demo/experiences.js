// The three personalized placements of the demo store, with contexts shaped like the upstream's
// experience context (what the page receives when it fetches the experience).
export const experiences = [
  {
    placement: 'hero',
    context: {
      cid: '6571f0c2a9e4b7d3c1f20a11',
      experience: 'Winter Sale Hero',
      svc_locale_id: '0',
      svc_variation_id: '2',
      audience_name: 'Returning visitors',
      audience_id: '5A',
      type: 'Web Personalization',
    },
  },
  {
    placement: 'recommendations',
    context: {
      cid: '6571f0c2a9e4b7d3c1f20a12',
      experience: 'Recommended For You',
      svc_locale_id: '0',
      svc_variation_id: '1',
      audience_name: 'High intent shoppers',
      audience_id: '7C',
      type: 'Web Personalization',
    },
  },
  {
    placement: 'shipping',
    context: {
      cid: '6571f0c2a9e4b7d3c1f20a13',
      experience: 'Free Shipping Nudge',
      svc_locale_id: '0',
      svc_variation_id: '3',
      audience_name: 'First-time visitors',
      audience_id: '2F',
      type: 'Web Personalization',
    },
  },
];
