import { ValidationError } from '../errors';
import { validateEvents } from '../upstream/events';
import { checkJsonShape } from '../upstream/problem';
import type { Transport } from './transport';
import type { AcceptedResponse, EventsApi, IdentityResolutionOption } from './types';
import { toWire } from './wire';

/** The upstream's documented limit: 128 KB per request (413 above it). */
const MAX_BODY_BYTES = 128 * 1024;

/**
 * `client.events`: `track` fills in `type: "event"` and `device_id` (the `customer_id`, as the
 * upstream defaults it), takes one action or many, turns `Date` times into ISO 8601, refuses
 * `svc_` names and future-dated events before sending to `POST {endpoint}/v1/event`.
 *
 * @example
 * await client.events.track('u-42', { action: 'Added to Cart', attributes: { sku: 'A-1', price: 9.5 } });
 */
export function createEventsApi(transport: Transport, settings: { identityResolution?: IdentityResolutionOption; futureSkewSeconds?: number } = {}): EventsApi {
  const identityResolution = settings.identityResolution ? { identifiers: [...settings.identityResolution.identifiers] } : undefined;
  return {
    async track(user, actions, call) {
      const who = typeof user === 'string' ? { customer_id: user } : user;
      if (typeof who !== 'object' || who === null || Array.isArray(who)) {
        throw new ValidationError('user', 'must be a customer_id string or { customer_id?, user_identifiers?, device_id? }');
      }
      const list = Array.isArray(actions) ? actions : [actions];
      const deviceId = who.device_id ?? who.customer_id;
      const body = toWire({
        type: 'event',
        customer_id: who.customer_id,
        ...(deviceId !== undefined ? { device_id: deviceId } : {}),
        ...(who.user_identifiers !== undefined ? { user_identifiers: who.user_identifiers } : {}),
        actions: list,
      });
      const problem =
        checkJsonShape(body) ??
        validateEvents(body, { now: Date.now(), futureSkewSeconds: settings.futureSkewSeconds ?? 60, ...(identityResolution ? { identityResolution } : {}) });
      if (problem) throw new ValidationError(problem.field, problem.rule);
      return (await transport.send('events', 'POST', '/v1/event', body, { ...call, maxBodyBytes: MAX_BODY_BYTES })) as AcceptedResponse;
    },
  };
}
