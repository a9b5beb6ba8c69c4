import { later } from '../../src/tracker/later';
import { loadDurable } from '../../src/tracker/load-durable';
import type { ExperienceContext } from '../../src/tracker/types';

/**
 * Resolves once trackers created before the call have started: the start waits for the delivery
 * code (a chunk of its own, issue 51), then runs in two later tasks, and each task here is asked
 * for only after the previous one ran.
 */
export const started = async () => {
  await loadDurable();
  await new Promise<void>((resolve) => later(() => later(() => later(resolve))));
};

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
