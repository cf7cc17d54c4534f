import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { registerErrorHandling } from '../../../src/http/errors.ts';
import { registerGuard } from '../../../src/http/guard.ts';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';

/**
 * Plan gating is one mechanism: a route declares `config.access` and the shared guard enforces it
 * (no `if` in handlers). Later issues' enterprise-only routes (CoA upload, webhooks) rely on this,
 * so it is tested here on a route of its own.
 */
describe('plan gate declared per route', () => {
  let ctx: TestContext;
  const app = Fastify();
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    registerErrorHandling(app);
    await app.register(
      async (scope) => {
        registerGuard(scope, ctx.container, {
          scope: 'a',
          policyFor: () => ({ kind: 'rolling', limit: 100, windowMs: DAY_MS }),
          limitMessage: () => 'limited',
        });
        scope.get('/read', async () => ({ ok: 'read' }));
        scope.get('/enterprise', { config: { access: 'enterprise' } }, async () => ({ ok: 'enterprise' }));
      },
      { prefix: '/t' },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await ctx?.close();
  });

  it.each([
    ['free', 403, 403],
    ['pro', 200, 403],
    ['enterprise', 200, 200],
    ['custom', 200, 200],
  ] as const)('%s: read → %i, enterprise-only → %i', async (plan, read, enterprise) => {
    const key = await ctx.keyFor(plan);
    const r = await app.inject({ url: '/t/read', headers: bearer(key) });
    const e = await app.inject({ url: '/t/enterprise', headers: bearer(key) });
    expect(r.statusCode).toBe(read);
    expect(e.statusCode).toBe(enterprise);
    if (enterprise === 403) {
      expect(e.json().error).toMatchObject({ code: 'plan_required', status: 403 });
      expect(e.json().error.message).toBe('This endpoint requires the Enterprise plan.');
      // Refused, with the quota shown but not spent.
      expect(e.headers['x-ratelimit-limit']).toBe('100');
    }
  });

  it('does not count a refused request against the quota', async () => {
    const key = await ctx.keyFor('pro');
    const first = await app.inject({ url: '/t/read', headers: bearer(key) });
    for (let i = 0; i < 3; i++) await app.inject({ url: '/t/enterprise', headers: bearer(key) });
    const after = await app.inject({ url: '/t/read', headers: bearer(key) });
    expect(Number(after.headers['x-ratelimit-remaining'])).toBe(
      Number(first.headers['x-ratelimit-remaining']) - 1,
    );
  });
});
