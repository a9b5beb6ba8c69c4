// Every route, end to end: browser-shaped request → proxy → real upstream on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { basic, experienceBody, harness, KEYS, WORKSPACE, type Harness } from './support';

let h: Harness;
afterEach(async () => {
  await h?.close();
  h = undefined as unknown as Harness;
});

const allow = () => true;

describe('routes', () => {
  it('forwards experience events to the sdk origin with the personalization key and SVC-APPKEY', async () => {
    h = await harness();
    const body = experienceBody(2);
    const res = await h.call('/v1/experiences/events', { json: body });
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe('success');
    expect(await h.upstream.received()).toMatchObject([{ method: 'POST', path: '/v1/experiences/events', status: 200 }]);
    const [got, ...more] = h.sent;
    expect(more).toHaveLength(0);
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe('/v1/experiences/events');
    expect(got!.headers.authorization).toBe(basic(KEYS.personalize));
    expect(got!.headers['svc-appkey']).toBe(WORKSPACE);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got!.body)).toEqual(body);
  });

  it('forwards users to /v1/customer/{workspace} with the data key when opted in', async () => {
    h = await harness({ operations: ['users'] });
    const body = { type: 'customer', customer_id: 'user-42', attributes: { first_name: 'Asha', plan: 'gold' } };
    const res = await h.call('/v1/customer', { json: body });
    expect(res.status).toBe(200);
    const [got] = h.sent;
    expect(got!.path).toBe(`/v1/customer/${WORKSPACE}`);
    expect(got!.headers.authorization).toBe(basic(KEYS.data));
    expect(JSON.parse(got!.body)).toEqual(body);
  });

  it('forwards events to /v1/event/{workspace} with the data key when opted in', async () => {
    h = await harness({ operations: ['events'] });
    const body = { type: 'event', customer_id: 'user-42', actions: [{ action: 'Added to cart', attributes: { sku: 'A1' }, platform: 'web' }] };
    const res = await h.call('/v1/event', { json: body });
    expect(res.status).toBe(200);
    const [got] = h.sent;
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe(`/v1/event/${WORKSPACE}`);
    expect(got!.headers.authorization).toBe(basic(KEYS.data));
  });

  it('forwards a campaign update (PATCH) with the campaign key once authorize allows it', async () => {
    const seen: string[] = [];
    h = await harness({ operations: ['campaignUpdate'], authorize: (_r, op) => (seen.push(op), true) });
    const body = { request_id: 'req-1', updated_by: 'ops@example.com' };
    const res = await h.call('/core-services/v1/campaigns/camp_abc123xyz', { method: 'PATCH', json: body });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(seen).toEqual(['campaignUpdate']);
    const [got] = h.sent;
    expect(got!.method).toBe('PATCH');
    expect(got!.path).toBe('/core-services/v1/campaigns/camp_abc123xyz');
    expect(got!.headers.authorization).toBe(basic(KEYS.campaign));
    expect(got!.headers['svc-appkey']).toBe(WORKSPACE);
  });

  it('forwards file-import status to the file-imports origin with the data key once authorized', async () => {
    h = await harness({ operations: ['fileImportStatus'], authorize: allow });
    const res = await h.call('/v1.0/data/fileimports/import/status', { json: {} });
    expect(res.status).toBe(200);
    const [got] = h.sent;
    expect(got!.path).toBe('/v1.0/data/fileimports/import/status');
    expect(got!.headers.authorization).toBe(basic(KEYS.data));
  });

  it('keeps an upstream path prefix given in the origin URL', async () => {
    h = await harness();
    const prefixed = await harness({ sdkUrl: `${h.upstream.url}/gateway` });
    try {
      await prefixed.call('/v1/experiences/events', { json: experienceBody() });
      expect(prefixed.sent.map((r) => r.path)).toEqual(['/gateway/v1/experiences/events']);
      expect((await h.upstream.received()).map((r) => r.path)).toEqual(['/gateway/v1/experiences/events']);
    } finally {
      await prefixed.close();
    }
  });
});
