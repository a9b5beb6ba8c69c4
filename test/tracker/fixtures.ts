import type { ExperienceContext } from '../../src/tracker/types';

/** An experience context as the upstream's Fetch Experience returns it. */
export const context: ExperienceContext = {
  cid: '65f1c0ffee',
  experience: 'Homepage hero',
  svc_locale_id: '0',
  svc_variation_id: '2',
  audience_name: 'All users',
  audience_id: '5A',
  type: 'Web Personalization',
};
