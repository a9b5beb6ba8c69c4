// The emulator's one pipeline: every upstream request passes these stages in order — route,
// faults, method, authenticate, limits, read, validate, the operation, answer. Each stage either
// answers (a refusal, an injected fault, the operation's result) or hands on. Admin routes
// (`/_emulator/...`) leave at the route stage: never faulted, never rate limited.
import { errorResponse } from '../../upstream/error-bodies';
import { matchUpstreamPath, OPERATIONS, type RouteMatch } from '../../upstream/operations';
import type { IdentityResolution } from '../../upstream/problem';
import { handleAdmin } from '../admin';
import { authenticate } from '../auth';
import type { Faults } from '../faults';
import type { RequestLog } from '../request-log';
import type { EmulatorState } from '../state';
import type { EmulatorControls } from '../types';
import { json, success } from './answer';
import type { Limits } from './limits';
import { perform } from './operation';
import { discardBody, readJson } from './read-body';
import { familyOf, isAdminPath, notFound } from './route';
import { validateRequest } from './validate';

/** What the stages read and change, built once by `createEmulator`. */
export interface PipelineContext {
  workspaceId: string;
  clock: () => number;
  state: EmulatorState;
  faults: Faults;
  limits: Limits;
  requests: RequestLog;
  futureSkewSeconds: number;
  identityResolution: IdentityResolution | undefined;
}

/** The handler: the stages, with the admin routes beside them and a last-resort guard around. */
export function createPipeline(context: PipelineContext, controls: EmulatorControls): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await handle(context, controls, request);
    } catch {
      return json({ title: 'Internal Server Error', description: 'Unexpected error' }, 500);
    }
  };
}

async function handle(context: PipelineContext, controls: EmulatorControls, request: Request): Promise<Response> {
  // Route: the admin API, an operation, or a 404 in the shape of the path's API family.
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return json({ title: 'Bad Request', description: 'Unreadable request URL' }, 400);
  }
  if (isAdminPath(url.pathname)) {
    try {
      return await handleAdmin(controls, request, url);
    } catch {
      return json({ error: 'Unexpected error in the admin API' }, 500);
    }
  }
  const match = matchUpstreamPath(url.pathname);
  const outcome = { fault: false };
  let response: Response;
  try {
    response = match ? await faulted(context, request, match, outcome) : notFound(url.pathname);
  } catch {
    // Last guard: whatever went wrong, answer in the operation's shape and keep serving.
    response = errorResponse(match?.operation ?? familyOf(url.pathname) ?? 'experienceEvents', { status: 500 });
  }
  if (!request.bodyUsed && response.type !== 'error') await discardBody(request);
  context.requests.record({
    method: request.method,
    path: url.pathname,
    status: response.type === 'error' ? 'reset' : response.status,
    operation: match?.operation ?? null,
    fault: outcome.fault,
  });
  return response;
}

// Faults: drawn for every request to an operation before any check, so the pattern depends
// only on the seed and the order of requests.
async function faulted(context: PipelineContext, request: Request, match: RouteMatch, outcome: { fault: boolean }): Promise<Response> {
  const fault = context.faults.decide(match.operation);
  if (fault.latencyMs > 0) await sleep(fault.latencyMs);
  outcome.fault = fault.outcome !== undefined;
  if (fault.outcome === 'reset') return Response.error();
  // Injected faults answer exactly as the upstream would for that status.
  if (typeof fault.outcome === 'number') return errorResponse(match.operation, { status: fault.outcome }, { retryAfterSeconds: fault.retryAfterSeconds });
  const response = await serve(context, request, match);
  // Stored, then the connection drops: the client never learns that it succeeded.
  return fault.outcome === 'reset-after' ? Response.error() : response;
}

async function serve(context: PipelineContext, request: Request, match: RouteMatch): Promise<Response> {
  const { operation } = match;
  // Method: 405 with `Allow`, in the operation's error shape.
  const method = OPERATIONS[operation].method;
  if (request.method !== method) return errorResponse(operation, { status: 405 }, { headers: { allow: method } });

  // Authenticate: the tile's key, the workspace, `SVC-APPKEY` as each operation wants them.
  const denied = authenticate(operation, request.headers, context.workspaceId, context.state.keys, match.workspaceId);
  if (denied) return errorResponse(operation, denied);

  // Limits on requests, before the body is read.
  const now = context.clock();
  const requestWait = context.limits.takeRequest(operation, now);
  if (requestWait !== undefined) return errorResponse(operation, { status: 429 }, { retryAfterSeconds: requestWait });

  // Read: JSON only, bounded by the operation's documented size.
  const read = await readJson(request, operation);
  if ('refusal' in read) return errorResponse(operation, read.refusal);

  // Validate: the upstream's rules, then the stored campaign's.
  const valid = validateRequest(match, read.body, context.state.store.campaigns, {
    now,
    futureSkewSeconds: context.futureSkewSeconds,
    identityResolution: context.identityResolution,
  });
  if ('problem' in valid) return errorResponse(operation, valid.problem, { requestId: valid.requestId });

  // Limits on events, counted only in a valid body.
  if (valid.operation === 'events') {
    const eventWait = context.limits.takeEvents(now, (valid.body.actions as unknown[]).length);
    if (eventWait !== undefined) return errorResponse(operation, { status: 429 }, { retryAfterSeconds: eventWait });
  }

  // The operation, then the answer.
  const result = perform(context.state, valid, now);
  return success(operation, result);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
