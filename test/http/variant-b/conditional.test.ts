import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, ENDPOINTS, expectEnvelope, type Fixture, iso, setupFixture } from './fixtures.ts';

/** ETags follow the data: an import changes every body (at least data_updated_at), so every ETag. */
describe.each(DIALECTS)('ETag after an import (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('an ETag from before an import no longer matches; the new body and ETag are served', async () => {
    const before = new Map<string, { etag: string; body: string }>();
    for (const { url } of ENDPOINTS) {
      const res = await f.get(url);
      before.set(url, { etag: res.headers.etag as string, body: res.body });
      expect((await f.get(url, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
    }
    f.ctx.clock.advance(HOUR_MS);
    const r = await f.ctx.load([{ type: 'vendor', slug: 'apex', name: 'Apex Labs Intl', location: 'USA' }]);
    expect(r.ok).toBe(true);
    for (const { url } of ENDPOINTS) {
      const old = before.get(url)!;
      const res = await f.get(url, { 'if-none-match': old.etag });
      expect(res.statusCode, url).toBe(200);
      expectEnvelope(res, iso(HOUR_MS));
      expect(res.headers.etag).not.toBe(old.etag);
      expect((await f.get(url, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
    }
    expect(expectEnvelope(await f.get(`${B}/vendors/apex`), iso(HOUR_MS)).name).toBe('Apex Labs Intl');
  });

  it('the ETag is the same for every key (it describes the body, not the caller)', async () => {
    const other = await f.ctx.keyFor('pro');
    for (const { url } of ENDPOINTS) {
      const a = await f.get(url);
      const b = await f.get(url, {}, other);
      expect(b.headers.etag).toBe(a.headers.etag);
      expect((await f.get(url, { 'if-none-match': a.headers.etag as string }, other)).statusCode).toBe(304);
    }
  });
});
