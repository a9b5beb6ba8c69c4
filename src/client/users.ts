import { ValidationError } from '../errors';
import { checkJsonShape } from '../upstream/problem';
import { validateUser } from '../upstream/users';
import type { Transport } from './transport';
import type { AcceptedResponse, IdentityResolutionOption, UsersApi } from './types';
import { toWire } from './wire';

/** The upstream's documented limit: 128 KB per request (413 above it). */
const MAX_BODY_BYTES = 128 * 1024;

/**
 * `client.users`: `upsert` fills in `type: "customer"`, turns `Date` values into ISO 8601 strings,
 * checks the body with the upstream's own rules (blocked and `svc_` names, platforms, …) and only
 * then sends it to `POST {endpoint}/v1/customer`.
 *
 * @example
 * await client.users.upsert({ customer_id: 'u-42', attributes: { u_em: 'ada@example.com', signed_up: new Date() } });
 */
export function createUsersApi(transport: Transport, identityResolution?: IdentityResolutionOption): UsersApi<boolean> {
  const options = identityResolution ? { identityResolution: { identifiers: [...identityResolution.identifiers] } } : {};
  return {
    async upsert(user, call) {
      if (typeof user !== 'object' || user === null || Array.isArray(user)) throw new ValidationError('user', 'must be an object');
      const { type: _type, ...rest } = user as Record<string, unknown>;
      const body = toWire({ type: 'customer', ...rest });
      const problem = checkJsonShape(body) ?? validateUser(body, options);
      if (problem) throw new ValidationError(problem.field, problem.rule);
      return (await transport.send('users', 'POST', '/v1/customer', body, { ...call, maxBodyBytes: MAX_BODY_BYTES })) as AcceptedResponse;
    },
  };
}
