import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type Fixture, LOADED_AT, RANKING, setupFixture } from './fixtures.ts';

/** The same API over a real TCP socket: headers, encoding and bodies as a client sees them. */
describe.each(DIALECTS)('over a real socket (%s)', (dialect) => {
  let f: Fixture;
  let base: string;
  beforeAll(async () => {
    f = await setupFixture(dialect);
    base = await f.ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => f?.ctx.close());

  const call = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${f.key}`, ...headers } });

  it('GET /api/v1/vendors → 200 JSON envelope with the ranking', async () => {
    const res = await call('/api/v1/vendors?limit=3');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
    expect(await res.json()).toEqual({
      data: { vendors: RANKING.slice(0, 3), total: 6, limit: 3, offset: 0 },
      data_updated_at: LOADED_AT,
    });
  });

  it('an encoded slash, hash and question mark survive the trip', async () => {
    const res = await call(`/api/v1/batches/${encodeURIComponent('lot/2026#a?1')}?vendor=apex`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({
      state: 'verified',
      batchId: 'LOT/2026#A?1',
      vendorSlug: 'apex',
    });
  });

  it('ETag / If-None-Match → 304 with no body', async () => {
    const first = await call('/api/v1/peptides/bpc-157/prices');
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const res = await call('/api/v1/peptides/bpc-157/prices', { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
  });

  it('no key → 401 with the error body', async () => {
    const res = await fetch(`${base}/api/v1/vendors/apex`);
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: string; status: number; request_id: string } };
    expect(body.error).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  });
});
