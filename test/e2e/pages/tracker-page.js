// Test harness for the browser suites: exposes the built tracker to page.evaluate().
import { createTracker } from '/dist/index.js';

window.engageErrors = [];
window.startTracker = (options = {}) => {
  window.tracker = createTracker({
    endpoint: '/engage',
    customerId: 'user-1',
    flushInterval: 500,
    onError: (error) => window.engageErrors.push({ name: error.name, message: error.message, status: error.status }),
    ...options,
  });
};
window.experience = (n = 0) => ({
  cid: `cid-${n}`,
  experience: `Experience ${n}`,
  svc_locale_id: '0',
  svc_variation_id: '2',
  audience_name: 'All users',
  audience_id: '5A',
  type: 'Web Personalization',
});
window.record = (count, action = 'shown') => {
  const ids = [];
  for (let i = 0; i < count; i++) ids.push(window.tracker[action](window.experience(i % 3), action === 'clicked' ? { b_id: 'Buy' } : undefined));
  return ids;
};
window.harnessReady = true;
