import { createCampaignsApi } from './campaigns';
import { createEventsApi } from './events';
import { createFileImportsApi } from './file-imports';
import { createTransport } from './transport';
import type { Client, ClientOptions, IdentityResolutionOption } from './types';
import { createUsersApi } from './users';

/**
 * The typed client for users, events, campaign update and file-import status, through the proxy
 * (which holds the keys). Every call validates its body with the upstream's rules before sending
 * (a `ValidationError` naming the field and the rule, nothing sent), and every failure rejects
 * with a typed error: `HttpError` (status + parsed upstream body), `NetworkError`,
 * `TimeoutError`, `AbortedError`. Only status queries are retried on 5xx/network errors; writes
 * are retried on 429 only (see `RETRY_RULES`).
 *
 * With `identityResolution`, `customer_id` becomes optional in the types and at run time.
 *
 * @example
 * const client = createClient({ endpoint: '/engage' });
 * await client.users.upsert({ customer_id: 'u-42', attributes: { u_fn: 'Ada' } });
 * await client.events.track('u-42', [{ action: 'Viewed Plan', attributes: { plan: 'pro' } }]);
 * await client.campaigns.update('camp_abc123xyz', { channel: 'PUSH', updated_by: 'ops@example.com', campaign_content: { … } });
 * for await (const page of client.fileImports.pages({ import_type: 'USERS' })) render(page.data);
 */
export function createClient(options: ClientOptions & { identityResolution: IdentityResolutionOption }): Client<true>;
export function createClient(options: ClientOptions): Client<false>;
export function createClient(options: ClientOptions): Client<boolean> {
  const transport = createTransport(options);
  const identityResolution = options.identityResolution;
  return {
    users: createUsersApi(transport, identityResolution),
    events: createEventsApi(transport, {
      ...(identityResolution ? { identityResolution } : {}),
      ...(options.futureSkewSeconds !== undefined ? { futureSkewSeconds: options.futureSkewSeconds } : {}),
    }),
    campaigns: createCampaignsApi(transport),
    fileImports: createFileImportsApi(transport),
  };
}
