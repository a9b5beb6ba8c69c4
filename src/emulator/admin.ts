import type { KeyTile } from '../upstream/operations';
import { parseFaultSpec } from './faults';
import type { EmulatorControls } from './types';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });
const fail = (status: number, error: string, headers?: Record<string, string>) => json({ error }, status, headers);

/** Runs an in-code method; the Error it throws names the field and the rule, so it becomes a 400. */
function orBadRequest(run: () => Response): Response {
  try {
    return run();
  } catch (error) {
    return fail(400, (error as Error).message);
  }
}

/** Admin bodies are small control messages; anything bigger is a mistake. */
const MAX_ADMIN_BODY = 64 * 1024;

async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const text = await request.text();
  if (text.length > MAX_ADMIN_BODY) return { ok: false, response: fail(413, `body must be at most ${MAX_ADMIN_BODY} bytes`) };
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: fail(400, 'body must be valid JSON') };
  }
}

/**
 * The admin API under `/_emulator/` (a prefix no upstream path starts with): inspection,
 * faults, key rotation, reset and live file imports. Thin wrappers over the in-code methods,
 * so both stay identical. Never subject to faults or rate limits.
 */
export async function handleAdmin(emulator: EmulatorControls, request: Request, url: URL): Promise<Response> {
  const path = url.pathname.replace(/\/+$/, '');
  const method = request.method;
  const only = async (allowed: string, run: () => Response | Promise<Response>): Promise<Response> => {
    if (method !== allowed) return fail(405, `use ${allowed} for ${path}`, { allow: allowed });
    const response = await run();
    // Read-only views may be shown by a local demo page on another origin; nothing here is a secret.
    if (allowed === 'GET') response.headers.set('access-control-allow-origin', '*');
    return response;
  };

  switch (path) {
    case '/_emulator/experience-events':
      return only('GET', () => json(emulator.getExperienceEvents()));
    case '/_emulator/users':
      return only('GET', () => json(emulator.getUsers()));
    case '/_emulator/events':
      return only('GET', () => json(emulator.getEvents()));
    case '/_emulator/campaigns':
      return only('GET', () => json(emulator.getCampaigns()));
    case '/_emulator/requests':
      return only('GET', () => json(emulator.getRequests()));
    case '/_emulator/reset':
      return only('POST', () => {
        emulator.reset();
        return json({ reset: true });
      });
    case '/_emulator/faults': {
      if (method === 'GET') return json({ faults: emulator.getFaults() });
      if (method === 'DELETE') {
        emulator.clearFaults();
        return json({ faults: null });
      }
      if (method !== 'POST') return fail(405, 'use GET, POST or DELETE for /_emulator/faults', { allow: 'GET, POST, DELETE' });
      const body = await readJson(request);
      if (!body.ok) return body.response;
      return orBadRequest(() => json({ faults: emulator.setFaults(parseFaultSpec(body.value)) }));
    }
    case '/_emulator/keys/rotate':
      return only('POST', async () => {
        const body = await readJson(request);
        if (!body.ok) return body.response;
        const tile = (body.value as { tile?: unknown }).tile as KeyTile;
        // The new key is returned here on purpose: this is the admin API of a local emulator,
        // and whoever rotates must hand the key to the proxy.
        return orBadRequest(() => json({ tile, key: emulator.rotateKey(tile) }));
      });
    case '/_emulator/file-imports':
      return only('POST', async () => {
        const body = await readJson(request);
        if (!body.ok) return body.response;
        return orBadRequest(() => json(emulator.createFileImport(body.value as never), 201));
      });
  }
  const campaign = /^\/_emulator\/campaigns\/([^/]+)$/.exec(path);
  if (campaign) {
    return only('GET', () => {
      let id: string;
      try {
        id = decodeURIComponent(campaign[1]!);
      } catch {
        return fail(404, 'no such campaign');
      }
      const found = emulator.getCampaign(id);
      return found ? json(found) : fail(404, 'no such campaign');
    });
  }
  return fail(404, `no admin route ${path}`);
}
