import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_HEADER, createPureRankClient, PureRankError } from '../../clients/typescript/src/index.ts';
import { ADMIN_TOKEN } from '../support/context.ts';
import { type ClientServer, startClientServer } from './server.ts';

/** The typed client against a real server on a real socket, with the Variant B fixture catalog. */
describe('typed client', () => {
  let s: ClientServer;
  beforeAll(async () => {
    s = await startClientServer();
  });
  afterAll(async () => s?.ctx.close());
  beforeEach(() => {
    s.wire.length = 0;
  });

  const client = () => createPureRankClient({ baseUrl: s.baseUrl, apiKey: s.key, fetch: s.fetch });

  it('makes a typed GET of each variant and of the operator API', async () => {
    const c = client();
    const a = await c.a.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    expect(a.response.status).toBe(200);
    expect(a.data?.slug).toBe('apex');
    expect(a.data?.name).toBe('Apex Labs');

    const b = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    expect(b.response.status).toBe(200);
    expect(b.data?.data.slug).toBe('apex');
    expect(typeof b.data?.data_updated_at).toBe('string');

    const missing = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'no-such-vendor' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe('not_found');

    const admin = c.admin({ token: ADMIN_TOKEN });
    const v = await admin.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    expect(v.response.status).toBe(200);
    const denied = await c.admin({ token: 'x'.repeat(40) }).GET('/accounts');
    expect(denied.response.status).toBe(401);
  });

  it('iterates every page of Variant B (offset/limit) and of Variant A (page/per_page)', async () => {
    const c = client();
    const whole = await c.b.GET('/vendors', { params: { query: { limit: 200 } } });
    const all = whole.data!.data.vendors.map((v) => v.slug);
    expect(all.length).toBeGreaterThanOrEqual(5);

    s.wire.length = 0;
    const paged: string[] = [];
    for await (const v of c.eachVendorB({ limit: 2 })) paged.push(v.slug);
    expect(paged).toEqual(all);
    // ceil(n / 2) pages, each fetched once.
    expect(s.wire).toEqual(Array(Math.ceil(all.length / 2)).fill(200));

    const wholeA = await c.a.GET('/vendors', { params: { query: { per_page: 200 } } });
    const allA = wholeA.data!.data.map((v) => v.slug);
    expect(allA.length).toBe(wholeA.data!.total);
    s.wire.length = 0;
    const pagedA: string[] = [];
    for await (const v of c.eachA('/vendors', { query: { per_page: 4 } })) pagedA.push(v.slug);
    expect(pagedA).toEqual(allA);
    expect(s.wire).toEqual(Array(Math.ceil(allA.length / 4)).fill(200));
  });

  it('stops paging with the documented error when a page fails', async () => {
    const c = createPureRankClient({ baseUrl: s.baseUrl, apiKey: 'pr_live_not-a-key', fetch: s.fetch });
    const read = async () => {
      for await (const _ of c.eachVendorB()) {
        // unreachable: the first page is a 401
      }
    };
    const err = await read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PureRankError);
    expect((err as PureRankError).status).toBe(401);
  });

  it('answers a repeated GET from the ETag cache after a 304, without spending quota', async () => {
    const c = client();
    const first = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'halfway' } } });
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('etag')).toBeTruthy();
    expect(first.response.headers.get(CACHE_HEADER)).toBeNull();
    const remaining = Number(first.response.headers.get('x-ratelimit-remaining'));

    const second = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'halfway' } } });
    expect(s.wire).toEqual([200, 304]);
    expect(second.response.status).toBe(200);
    expect(second.response.headers.get(CACHE_HEADER)).toBe('revalidated');
    expect(second.data).toEqual(first.data);
    // A 304 is not counted: the quota the 304 reports is the one after the first request.
    expect(Number(second.response.headers.get('x-ratelimit-remaining'))).toBe(remaining);

    // After an import the ETag changes: the server answers 200 with the new body, and it is kept.
    s.ctx.clock.advance(60_000);
    await s.ctx.load([
      { type: 'override', vendorSlug: 'halfway', field: 'experience', value: 90, reason: 't' },
    ]);
    const third = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'halfway' } } });
    expect(s.wire).toEqual([200, 304, 200]);
    expect(third.response.headers.get(CACHE_HEADER)).toBeNull();
    expect(third.data?.data.pillars?.experience).toBe(90);
    expect(third.response.headers.get('etag')).not.toBe(first.response.headers.get('etag'));
  });

  it('leaves a caller-supplied If-None-Match alone, so the caller sees the 304', async () => {
    const c = client();
    const first = await c.a.GET('/vendors/{slug}', { params: { path: { slug: 'zeta' } } });
    const etag = first.response.headers.get('etag')!;
    const again = await c.a.GET('/vendors/{slug}', {
      params: { path: { slug: 'zeta' }, header: { 'If-None-Match': etag } },
    });
    expect(again.response.status).toBe(304);
  });
});
