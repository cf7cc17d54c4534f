import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedRead } from '../../../src/http/cached-read.ts';
import { respond, toCachedBody } from '../../../src/http/conditional.ts';
import type { VariantRoutes } from '../../../src/http/variant-context.ts';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';

/**
 * Plan gating is one mechanism: a route declares `config.access` once, and the one admission
 * decision (src/http/admission.ts) enforces it on both request paths — the Fastify guard and the
 * fast path that answers cached reads on a real socket. Later issues' enterprise-only routes (CoA
 * upload, webhooks) rely on it, so it is tested on probe routes of its own, registered behind
 * Variant A's guard like any route of the variant.
 */
const probes: VariantRoutes = (app, { cache, services }) => {
  for (const access of ['read', 'enterprise'] as const) {
    const read = cachedRead(() => `a:probe:${access}`);
    app.get(`/probe/${access}`, { config: { access, cachedRead: read } }, (request, reply) => {
      const key = read.key(undefined, undefined);
      const version = services.freshness.state.dataVersion;
      return respond(request, reply, cache.get(key, version, 0), async () =>
        cache.set(key, version, toCachedBody(JSON.stringify({ ok: access }))),
      );
    });
  }
};

describe.each(DIALECTS)('plan gate declared per route, on both request paths (%s)', (dialect) => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext(dialect, { app: { extraRoutes: { a: probes } } });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx?.close());

  const inject = async (url: string, key: string) => {
    const r = await ctx.app.inject({ url, headers: bearer(key) });
    return { status: r.statusCode, body: r.body, headers: r.headers as Record<string, string> };
  };
  const overSocket = async (url: string, key: string) => {
    const r = await fetch(`${base}${url}`, { headers: bearer(key) });
    return { status: r.status, body: await r.text(), headers: Object.fromEntries(r.headers) };
  };

  it.each([
    ['free', 403, 403],
    ['pro', 200, 403],
    ['enterprise', 200, 200],
    ['custom', 200, 200],
  ] as const)(
    '%s: read → %i, enterprise-only → %i, in-process and over a socket',
    async (plan, read, ent) => {
      const key = await ctx.keyFor(plan);
      for (const send of [inject, overSocket, overSocket, inject, overSocket]) {
        expect((await send('/v1/probe/read', key)).status).toBe(read);
        const e = await send('/v1/probe/enterprise', key);
        expect(e.status).toBe(ent);
        if (ent === 403) {
          expect(JSON.parse(e.body).error).toMatchObject({ code: 'plan_required', status: 403 });
          expect(JSON.parse(e.body).error.message).toBe('This endpoint requires the Enterprise plan.');
          // Refused, with the quota shown but not spent.
          expect(e.headers['x-ratelimit-limit']).toBeTruthy();
        }
      }
    },
  );

  it('a pro key gets 403 from both paths on every request, while an enterprise key is served fast', async () => {
    const ent = await ctx.keyFor('enterprise');
    const pro = await ctx.keyFor('pro');
    // New keys bump the keys version; on PostgreSQL the notice of it arrives asynchronously.
    await ctx.container.freshness.refresh();
    await overSocket('/v1/probe/enterprise', ent); // fills the cached body
    const before = ctx.app.fastPath.served;
    // On PostgreSQL the once-a-second version poll can send one request to the framework: retry.
    for (let i = 0; i < 4 && ctx.app.fastPath.served === before; i++)
      expect((await overSocket('/v1/probe/enterprise', ent)).status).toBe(200);
    expect(ctx.app.fastPath.served, 'the enterprise key was answered by the fast path').toBe(before + 1);
    // The pro key alternates paths and never gets through, however often it asks.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await overSocket('/v1/probe/enterprise', pro)).status);
      statuses.push((await inject('/v1/probe/enterprise', pro)).status);
      // A successful read by the same key in between must not open the gate either.
      expect((await overSocket('/v1/probe/read', pro)).status).toBe(200);
    }
    expect(new Set(statuses)).toEqual(new Set([403]));
  });

  it('does not count a refused request against the quota', async () => {
    const key = await ctx.keyFor('pro');
    const first = await overSocket('/v1/probe/read', key);
    for (let i = 0; i < 3; i++) {
      await inject('/v1/probe/enterprise', key);
      await overSocket('/v1/probe/enterprise', key);
    }
    const after = await overSocket('/v1/probe/read', key);
    expect(Number(after.headers['x-ratelimit-remaining'])).toBe(
      Number(first.headers['x-ratelimit-remaining']) - 1,
    );
  });

  it('refuses to register a route that declares no access', async () => {
    const bad = await createTestContext(dialect, {
      app: { extraRoutes: { b: (app) => app.get('/undeclared', async () => ({})) } },
    }).catch((err: Error) => err);
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toMatch(/declares no config\.access/);
  });
});
