// What the proxy benches send and how they report it.

/** An experience-events body of `actions` fresh events (new UUIDs), as the tracker sends it. */
export function experienceBody(actions = 1) {
  const now = Math.floor(Date.now() / 1000) - 1;
  return JSON.stringify({
    elements: [
      {
        customer_id: 'bench-user',
        user_timezone_offset: 19800,
        actions: Array.from({ length: actions }, () => ({
          action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
          svc_event_uuid: crypto.randomUUID(),
          event_time: now,
          platform: 'web',
          attributes: { cid: 'c1', experience: 'Hero', svc_locale_id: '0', svc_variation_id: '2', audience_name: 'All', audience_id: '5A', type: 'Web Personalization' },
        })),
      },
    ],
  });
}

/** The `p`th percentile of an ascending list. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
export const ms = (n) => `${n.toFixed(3)} ms`;
