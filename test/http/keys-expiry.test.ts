import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import type { Account } from '../../src/core/accounts/model.ts';
import { HOUR_MS } from '../../src/core/clock.ts';
import { bearer, createTestContext, type TestContext } from '../support/context.ts';
import { DIALECTS } from '../support/databases.ts';

const FIXTURE = [
  {
    type: 'vendor',
    slug: 'apex',
    name: 'Apex',
    location: 'Canada',
    verified: true,
    listingPlan: 'premium',
    website: 'https://apex.example',
  },
];

/** Cached reads of both variants, which the fast path answers on a real socket. */
const URLS = ['/api/v1/vendors', '/v1/vendors'] as const;

interface Answer {
  status: number;
  code: string | undefined;
  /** Whether the fast path answered it (only a real socket can tell). */
  fast: boolean;
  headers: Record<string, string>;
}

/**
 * A rolled key works through its overlap and then answers 401 `invalid_api_key` exactly like a
 * revoked key; a revoked key answers 401 on its very next request. Both on the Fastify guard
 * (inject) and on the fast path (a real socket), with the key already cached on both: the expiry
 * is compared with the (injected) clock on every request.
 */
describe.each(DIALECTS)('key roll and revocation on both request paths (%s)', (dialect) => {
  let ctx: TestContext;
  let base: string;
  let account: Account;
  let unknownKey401: string;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    expect((await ctx.load(FIXTURE)).ok).toBe(true);
    account = await createAccount(ctx.container.store, { name: 'rollers', plan: 'enterprise' });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    unknownKey401 = (await ctx.app.inject({ url: URLS[0], headers: bearer(`prk_live_${'Q'.repeat(32)}`) }))
      .body;
  });
  afterAll(async () => ctx?.close());

  const newKey = async (name: string) => ctx.container.accountKeys.create(account.id, name);

  const inject = async (url: string, key: string): Promise<Answer> => {
    const r = await ctx.app.inject({ url, headers: bearer(key) });
    return {
      status: r.statusCode,
      code: r.statusCode >= 400 ? JSON.parse(r.body).error.code : undefined,
      fast: false,
      headers: r.headers as Record<string, string>,
    };
  };
  const overSocket = async (url: string, key: string): Promise<Answer> => {
    const before = ctx.app.fastPath.served;
    const r = await fetch(`${base}${url}`, { headers: bearer(key) });
    const body = await r.text();
    return {
      status: r.status,
      code: r.status >= 400 ? JSON.parse(body).error.code : undefined,
      fast: ctx.app.fastPath.served === before + 1,
      headers: Object.fromEntries(r.headers),
    };
  };
  /**
   * Asks over a socket until the fast path answers (a first request fills the cache and the key's
   * lane; on PostgreSQL a change notice or the once-a-second poll can send one to the framework).
   */
  const servedFast = async (url: string, key: string): Promise<Answer> => {
    let a = await overSocket(url, key);
    for (let i = 0; i < 5 && !a.fast; i++) a = await overSocket(url, key);
    return a;
  };
  /** A change of keys reaches this instance: at once on SQLite, by notice on PostgreSQL. */
  const settle = () => ctx.container.freshness.refresh();

  it('an expired key is refused exactly like an unknown or revoked one: the same 401 body, no rate headers', async () => {
    const { key, info } = await newKey('expiring');
    await ctx.container.accountKeys.roll(account.id, info.id, 3600);
    await settle();
    ctx.clock.advance(HOUR_MS);
    try {
      const r = await ctx.app.inject({ url: URLS[0], headers: bearer(key) });
      expect(r.statusCode).toBe(401);
      const strip = (b: string) => b.replace(/"request_id":"[^"]+"/, '');
      expect(strip(r.body)).toBe(strip(unknownKey401));
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
      // An unknown route under the prefix: 404 whatever the key, and no quota for an expired one.
      const missing = await ctx.app.inject({ url: '/api/v1/nowhere', headers: bearer(key) });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      ctx.clock.advance(-HOUR_MS);
    }
  });

  for (const url of URLS) {
    it(`${url}: roll with a 1 h overlap on the guard path (inject) — works until the expiry, 401 from it`, async () => {
      const { key: old, info } = await newKey('guard');
      expect((await inject(url, old)).status).toBe(200); // cached on this path now
      const rolled = await ctx.container.accountKeys.roll(account.id, info.id, 3600);
      await settle();
      expect((await inject(url, old)).status).toBe(200);
      expect((await inject(url, rolled.key)).status).toBe(200);
      ctx.clock.advance(HOUR_MS - 1);
      try {
        expect((await inject(url, old)).status).toBe(200);
        ctx.clock.advance(1);
        expect(await inject(url, old)).toMatchObject({ status: 401, code: 'invalid_api_key' });
        expect(await inject(url, old)).toMatchObject({ status: 401, code: 'invalid_api_key' });
        expect((await inject(url, rolled.key)).status).toBe(200);
      } finally {
        ctx.clock.advance(-HOUR_MS);
      }
    });

    it(`${url}: roll with a 24 h overlap on the fast path (real socket) — served fast until the expiry, then 401`, async () => {
      const { key: old, info } = await newKey('socket');
      expect(await servedFast(url, old)).toMatchObject({ status: 200, fast: true });
      const rolled = await ctx.container.accountKeys.roll(account.id, info.id, 86_400);
      await settle();
      // The roll emptied the key caches; once looked up again the old key is served fast with its expiry.
      expect(await servedFast(url, old)).toMatchObject({ status: 200, fast: true });
      expect(await servedFast(url, rolled.key)).toMatchObject({ status: 200, fast: true });
      ctx.clock.advance(86_400_000 - 1);
      try {
        expect(await servedFast(url, old)).toMatchObject({ status: 200, fast: true });
        ctx.clock.advance(1);
        // Its lane is still cached: only the comparison with the clock refuses it. Never served fast again.
        for (let i = 0; i < 3; i++)
          expect(await overSocket(url, old)).toMatchObject({
            status: 401,
            code: 'invalid_api_key',
            fast: false,
          });
        expect(await servedFast(url, rolled.key)).toMatchObject({ status: 200, fast: true });
      } finally {
        ctx.clock.advance(-86_400_000);
      }
    });
  }

  it('roll with overlap 0: the old key is refused on its next request, on both paths', async () => {
    const { key: a, info: ia } = await newKey('now-socket');
    const { key: b, info: ib } = await newKey('now-inject');
    await settle();
    expect(await servedFast(URLS[0], a)).toMatchObject({ status: 200, fast: true });
    expect((await inject(URLS[0], b)).status).toBe(200);
    const ra = await ctx.container.accountKeys.roll(account.id, ia.id, 0);
    const rb = await ctx.container.accountKeys.roll(account.id, ib.id, 0);
    expect(await overSocket(URLS[0], a)).toMatchObject({ status: 401, code: 'invalid_api_key', fast: false });
    expect(await inject(URLS[0], b)).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect((await overSocket(URLS[0], ra.key)).status).toBe(200);
    expect((await inject(URLS[0], rb.key)).status).toBe(200);
  });

  it('revoke: the very next request is 401, on the fast path and on the guard path, for both variants', async () => {
    const { key, info } = await newKey('revoked');
    await settle();
    for (const url of URLS) {
      expect(await servedFast(url, key)).toMatchObject({ status: 200, fast: true });
      expect((await inject(url, key)).status).toBe(200);
    }
    await ctx.container.accountKeys.revoke(account.id, info.id);
    for (const url of URLS) {
      expect(await overSocket(url, key)).toMatchObject({ status: 401, code: 'invalid_api_key', fast: false });
      expect(await inject(url, key)).toMatchObject({ status: 401, code: 'invalid_api_key' });
      expect(await overSocket(url, key)).toMatchObject({ status: 401, fast: false });
    }
  });

  it("another account cannot revoke or roll this account's key: not_found, and the key keeps working", async () => {
    const other = await createAccount(ctx.container.store, { name: 'strangers', plan: 'enterprise' });
    const { key, info } = await newKey('mine');
    await settle();
    expect(await servedFast(URLS[0], key)).toMatchObject({ status: 200, fast: true });
    await expect(ctx.container.accountKeys.revoke(other.id, info.id)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(ctx.container.accountKeys.roll(other.id, info.id, 0)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await servedFast(URLS[0], key)).toMatchObject({ status: 200, fast: true });
    expect((await inject(URLS[1], key)).status).toBe(200);
  });

  it('keys without an expiry are unaffected by time', async () => {
    const { key } = await newKey('forever');
    await settle();
    expect(await servedFast(URLS[0], key)).toMatchObject({ status: 200, fast: true });
    ctx.clock.advance(400 * 86_400_000);
    try {
      expect(await servedFast(URLS[0], key)).toMatchObject({ status: 200, fast: true });
      expect((await inject(URLS[1], key)).status).toBe(200);
    } finally {
      ctx.clock.advance(-400 * 86_400_000);
    }
  });
});
