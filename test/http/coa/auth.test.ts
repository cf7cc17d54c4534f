import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { expectError } from '../variant-b/fixtures.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { expectVerification, postCoa, verificationUrl } from './form.ts';

const rate = (r: LightMyRequestResponse) => ({
  limit: r.headers['x-ratelimit-limit'],
  remaining: r.headers['x-ratelimit-remaining'],
  reset: r.headers['x-ratelimit-reset'],
});

/** The headers are present and well-formed (values as Variant A's hourly window gives them). */
const expectRateHeaders = (r: LightMyRequestResponse) => {
  const h = rate(r);
  expect(h.limit, r.body).toMatch(/^\d+$/);
  expect(h.remaining).toMatch(/^\d+$/);
  expect(h.reset).toMatch(/^\d{10}$/);
  return { limit: Number(h.limit), remaining: Number(h.remaining) };
};

/**
 * Enterprise only (DESIGN: plans): the guard answers before the form is read. The refusals are the
 * documented error body; a refusal to a valid key carries its rate-limit headers (a 401 cannot: no
 * key, no quota — README). Uploads count against Variant A's limit like any request.
 */
describe.each(DIALECTS)('CoA endpoints: keys, plans and the rate limit (%s)', (dialect) => {
  let f: CoaFixture;
  let file: Uint8Array;
  beforeAll(async () => {
    f = await setupCoa(dialect);
    file = await coa({ batch: 'AUTH-1' });
  });
  afterAll(async () => f?.ctx.close());

  const upload = (key: string | null) => postCoa(f.ctx, key, { file, peptide: 'bpc-157', vendor: 'aurora' });

  it('no key: 401 invalid_api_key, no rate-limit headers', async () => {
    const r = await upload(null);
    expectError(r, 401, 'invalid_api_key');
    expect(rate(r)).toEqual({ limit: undefined, remaining: undefined, reset: undefined });
    const g = await f.ctx.app.inject({ url: verificationUrl(`ver_${'0'.repeat(32)}`) });
    expectError(g, 401, 'invalid_api_key');
  });

  it('an unknown key: 401', async () => {
    expectError(await upload(`prk_live_${'x'.repeat(39)}`), 401, 'invalid_api_key');
  });

  it.each(['pro', 'free'] as const)(
    'a %s key: 403 plan_required with the rate-limit headers, on both routes',
    async (plan) => {
      const key = await f.ctx.keyFor(plan);
      const r = await upload(key);
      expect(expectError(r, 403, 'plan_required').message).toBe(
        'This endpoint requires the Enterprise plan.',
      );
      const before = expectRateHeaders(r);
      const g = await f.ctx.app.inject({
        url: verificationUrl(`ver_${'0'.repeat(32)}`),
        headers: bearer(key),
      });
      expectError(g, 403, 'plan_required');
      // A refusal is not counted.
      expect(expectRateHeaders(g).remaining).toBe(before.remaining);
    },
  );

  it.each(['enterprise', 'custom'] as const)('a %s key is allowed', async (plan) => {
    const key = await f.ctx.keyFor(plan);
    const r = await upload(key);
    expect(expectVerification(r).status).toBe('pending_review');
    expectRateHeaders(r);
  });

  it('every upload counts, a refused form too; the GET counts', async () => {
    const key = await f.ctx.keyFor('enterprise');
    const answers = [
      await upload(key),
      await postCoa(f.ctx, key, { file, vendor: 'aurora' }), // 400: no peptide
      await upload(key), // the same upload again: the earlier result, still a request
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 400, 200]);
    const id = answers[0]!.json().verification_id;
    answers.push(await f.get(id, key));
    expect(answers[3]!.statusCode).toBe(200);
    const remaining = answers.map((r) => expectRateHeaders(r).remaining);
    expect(remaining).toEqual([9999, 9998, 9997, 9996]);
    expect(answers.map((r) => expectRateHeaders(r).limit)).toEqual([10000, 10000, 10000, 10000]);
  });

  it('at the limit: 429 rate_limited with Retry-After, and the upload is not read', async () => {
    const name = 'coa-tiny-limit';
    const key = await f.ctx.keyFor('custom', name, { rateLimitA: 2 });
    const fresh = await coa({ batch: 'LIMIT-1' });
    const send = () => postCoa(f.ctx, key, { file: fresh, peptide: 'bpc-157', vendor: 'aurora' });
    const first = await f.ctx.app.inject({ url: '/v1/peptides', headers: bearer(key) });
    expect(first.statusCode).toBe(200);
    expect(rate(first).remaining).toBe('1');
    expect(expectVerification(await send()).status).toBe('pending_review');
    const refused = await postCoa(f.ctx, key, {
      file: await coa({ batch: 'LIMIT-2' }),
      peptide: 'bpc-157',
      vendor: 'aurora',
    });
    expectError(refused, 429, 'rate_limited');
    expect(rate(refused)).toMatchObject({ limit: '2', remaining: '0' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Nothing of the refused upload was read, stored or queued.
    expect(await f.batchState('LIMIT-2')).toBe('missing');
    expect(await f.storedFor(await coa({ batch: 'LIMIT-2' }), name)).toBeNull();
    expect(await f.storedFor(fresh, name)).not.toBeNull();
  });
});
