import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, iso, setupCoa } from './fixtures.ts';
import { expectVerification } from './form.ts';

/**
 * A pending CoA submission changes nothing the vendor lists show (scores read approved batches
 * only), so the lists' cached bodies stay: the same bytes, ETag and `data_updated_at` (when the data
 * behind the list last changed), answered from memory by the fast path on the first request after
 * the upload, not rendered again. A flood of uploads then costs the list nothing per upload. An
 * approval changes a score: the lists change, with the approval's time. Over a real socket, since
 * the fast path is the server's.
 */
describe.each(DIALECTS)('vendor lists across CoA submissions (%s)', (dialect) => {
  let f: CoaFixture;
  let base: string;
  beforeAll(async () => {
    f = await setupCoa(dialect);
    base = await f.ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => f?.ctx.close());

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${url}`, { headers: { ...bearer(f.key), ...headers } });
    return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
  };
  /**
   * The next answer to `url`, whether the fast path gave it, and whether anything was rendered for
   * it (a render reads the catalog snapshot; a cached body does not). On PostgreSQL a change notice
   * or the once-a-second version poll may send a request to the framework (a data check to load),
   * which then answers from the cache too: the answer is asked for again, a few times at most.
   */
  const fromMemory = async (url: string) => {
    // Settled first: the upload's version read, and the snapshot of it built (the server does that
    // on its own right after a write; here it is awaited so that nothing else reads the snapshot).
    const { freshness, catalog } = f.ctx.container;
    for (let p = freshness.check(); p; p = freshness.check()) await p;
    await catalog.get(freshness.state);
    const get0 = catalog.get;
    let reads = 0;
    catalog.get = (state) => {
      reads++;
      return get0.call(catalog, state);
    };
    try {
      for (let i = 0; i < 4; i++) {
        const before = f.ctx.app.fastPath.served;
        const res = await get(url);
        const fast = f.ctx.app.fastPath.served === before + 1;
        if (fast || dialect === 'sqlite') return { ...res, fast, rendered: reads > 0 };
      }
      throw new Error(`${url} never came from the fast path`);
    } finally {
      catalog.get = get0;
    }
  };
  const LISTS = ['/api/v1/vendors?limit=50', '/v1/vendors'] as const;
  const semaglutide = (batch: string) =>
    coa({ batch, compound: 'Semaglutide', purity: 99.3, verificationKey: `NWA-${batch}` });

  let listed: Record<string, { etag: string | null; body: string }>;
  let loadedAt: string;

  it('the lists are cached before any upload', async () => {
    listed = {};
    for (const url of LISTS) {
      const first = await get(url);
      expect(first.status, first.body).toBe(200);
      listed[url] = { etag: first.etag, body: first.body };
      const again = await fromMemory(url);
      expect(again.fast).toBe(true);
      expect(again.rendered).toBe(false);
      expect(again.body).toBe(first.body);
    }
    loadedAt = JSON.parse(listed['/api/v1/vendors?limit=50']!.body).data_updated_at;
  });

  it('a pending submission moves the data version but leaves the list bodies: same bytes, ETag and data_updated_at, from memory at once', async () => {
    const version = f.dataVersion();
    f.ctx.clock.set(f.ctx.clock.now() + 60_000);
    const v = expectVerification(
      await f.upload({ file: await semaglutide('SEM-7001'), peptide: 'semaglutide', vendor: 'aurora' }),
    );
    expect(v.status).toBe('pending_review');
    expect(f.dataVersion()).toBeGreaterThan(version);
    // What does depend on the submission changed at once: B's batch lookup, with the write's time.
    const batch = await get(`/api/v1/batches/SEM-7001?vendor=aurora`);
    expect(JSON.parse(batch.body)).toMatchObject({
      data: { state: 'pending' },
      data_updated_at: iso(60_000),
    });

    for (const url of LISTS) {
      const after = await fromMemory(url);
      expect(after.rendered, `${url}: not rendered again`).toBe(false);
      // On SQLite nothing else can send it to the framework: the fast path answers it.
      if (dialect === 'sqlite') expect(after.fast, `${url}: answered by the fast path`).toBe(true);
      expect(after.status).toBe(200);
      expect(after.body).toBe(listed[url]!.body);
      expect(after.etag).toBe(listed[url]!.etag);
      // A client holding the ETag is told nothing changed.
      const conditional = await get(url, { 'if-none-match': listed[url]!.etag! });
      expect(conditional.status).toBe(304);
    }
    expect(JSON.parse(listed['/api/v1/vendors?limit=50']!.body).data_updated_at).toBe(loadedAt);
  });

  it('a second pending submission of another vendor leaves them too', async () => {
    f.ctx.clock.set(f.ctx.clock.now() + 60_000);
    const v = expectVerification(
      await f.upload({ file: await semaglutide('SEM-7002'), peptide: 'semaglutide', vendor: 'aurora' }),
    );
    expect(v.status).toBe('pending_review');
    for (const url of LISTS) {
      const after = await fromMemory(url);
      expect(after.body).toBe(listed[url]!.body);
      expect(after.rendered).toBe(false);
    }
  });

  it("approving one moves the vendor's score: both lists change, and B's data_updated_at is the approval's time", async () => {
    f.ctx.clock.set(f.ctx.clock.now() + 60_000);
    const approvedAt = new Date(f.ctx.clock.now()).toISOString();
    const res = await f.admin('POST', '/vendors/aurora/batches/SEM-7001/approve');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scoreChanges).toHaveLength(1);
    for (const url of LISTS) {
      const after = await get(url);
      expect(after.status).toBe(200);
      expect(after.body).not.toBe(listed[url]!.body);
      expect(after.etag).not.toBe(listed[url]!.etag);
      expect((await get(url, { 'if-none-match': listed[url]!.etag! })).status).toBe(200);
    }
    const b = JSON.parse((await get('/api/v1/vendors?limit=50')).body);
    expect(b.data_updated_at).toBe(approvedAt);
    const aurora = b.data.vendors.find((v: { slug: string }) => v.slug === 'aurora');
    expect(aurora.score).toBe(res.json().scoreChanges[0].next);
  });
});
