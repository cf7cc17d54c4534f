import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, expectError, iso, setupAdmin } from './helpers.ts';

describe.each(DIALECTS)('operator API: overrides (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const overrides = async (query = '') => {
    const res = await f.call('GET', `/overrides${query}`);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  it('a score override set and cleared: who, when and why; the score moves and comes back', async () => {
    const computed = await f.publicScore('apex');
    expect(computed).not.toBeNull();
    const pinned = computed === 42 ? 43 : 42;
    const res = await f.call(
      'PUT',
      '/vendors/apex/overrides/score',
      { value: pinned, reason: 'Lab fraud under review' },
      { 'x-operator': 'ann' },
    );
    expect(res.statusCode).toBe(200);
    const entry = {
      vendorSlug: 'apex',
      field: 'score',
      value: pinned,
      reason: 'Lab fraud under review',
      setBy: 'ann',
      setAt: iso(0),
    };
    expect(res.json()).toEqual({
      override: entry,
      scoreChanges: [{ vendorSlug: 'apex', previous: computed, next: pinned }],
    });
    expect(await f.publicScore('apex')).toBe(pinned);
    expect(await overrides()).toEqual([entry]);
    expect(await overrides('?vendor=apex')).toEqual([entry]);
    expect(await overrides('?vendor=borealis')).toEqual([]);
    const view = (await f.call('GET', '/vendors/apex')).json();
    expect(view.overrides).toEqual([entry]);
    expect(view.score).toBe(pinned);
    expect(view.history.at(-1)).toEqual({
      score: pinned,
      reason: 'override score by ann',
      recordedAt: iso(0),
    });
    const changed = (await f.events('&type=score.changed&vendor=apex')).at(-1);
    expect(changed?.data).toMatchObject({
      previous_score: computed,
      new_score: pinned,
      delta: pinned - (computed ?? 0),
    });

    const cleared = await f.call('DELETE', '/vendors/apex/overrides/score', undefined, {
      'x-operator': 'bob',
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({
      cleared: entry,
      scoreChanges: [{ vendorSlug: 'apex', previous: pinned, next: computed }],
    });
    expect(await f.publicScore('apex')).toBe(computed);
    expect(await overrides()).toEqual([]);
    const after = (await f.call('GET', '/vendors/apex')).json();
    expect(after.history.at(-1)).toEqual({
      score: computed,
      reason: 'override score cleared by bob',
      recordedAt: iso(0),
    });
  });

  it('a pillar override moves the effective pillar, not the computed one; the default actor is admin-api', async () => {
    const before = (await f.call('GET', '/vendors/borealis')).json();
    const value = before.computed.coa === 0 ? 100 : 0;
    const res = await f.call('PUT', '/vendors/borealis/overrides/coa', { value, reason: 'CoAs withdrawn' });
    expect(res.statusCode).toBe(200);
    expect(res.json().override).toMatchObject({ field: 'coa', value, setBy: 'admin-api' });
    const after = (await f.call('GET', '/vendors/borealis')).json();
    expect(after.computed).toEqual(before.computed);
    expect(after.pillars).toEqual({ ...before.pillars, coa: value });
    // 0.30 of the composite: a 90+ point swing in coa must move the score.
    expect(after.score).not.toBe(before.score);
    expect(res.json().scoreChanges).toEqual([
      { vendorSlug: 'borealis', previous: before.score, next: after.score },
    ]);
    expect(await f.publicScore('borealis')).toBe(after.score);
    // Replacing it keeps one override per field.
    await f.call('PUT', '/vendors/borealis/overrides/coa', { value: 50, reason: 'Partly restored' });
    expect(await overrides('?vendor=borealis')).toEqual([
      expect.objectContaining({ field: 'coa', value: 50, reason: 'Partly restored' }),
    ]);
    await f.call('DELETE', '/vendors/borealis/overrides/coa');
    expect((await f.call('GET', '/vendors/borealis')).json().score).toBe(before.score);
  });

  it('clearing with a reason, in the query or the body, keeps it in the decision log; both, or a bad one, is 400', async () => {
    const set = () => f.call('PUT', '/vendors/apex/overrides/purity', { value: 12, reason: 'spot check' });
    const log = () => f.ctx.container.operator.actions({ vendorSlug: 'apex', subject: 'purity', limit: 10 });
    expect((await set()).statusCode).toBe(200);
    const before = await log();
    for (const [url, body] of [
      ['/vendors/apex/overrides/purity?reason=a', { reason: 'b' }],
      [`/vendors/apex/overrides/purity?reason=${'r'.repeat(501)}`, undefined],
      ['/vendors/apex/overrides/purity', { reason: 'r'.repeat(501) }],
      ['/vendors/apex/overrides/purity', { reason: null }],
      ['/vendors/apex/overrides/purity', { why: 'x' }],
    ] as const) {
      const m = expectError(await f.call('DELETE', url, body), 400, 'invalid_parameter');
      expect(m, url).toMatch(/'reason'|'why'|additional/);
    }
    expect(await log()).toEqual(before);
    expect(await overrides('?vendor=apex')).toHaveLength(1);

    const byQuery = await f.call(
      'DELETE',
      `/vendors/apex/overrides/purity?reason=${encodeURIComponent('lab re-tested')}`,
      undefined,
      {
        'x-operator': 'bob',
      },
    );
    expect(byQuery.statusCode, byQuery.body).toBe(200);
    expect(await set()).toMatchObject({ statusCode: 200 });
    const byBody = await f.call('DELETE', '/vendors/apex/overrides/purity', { reason: ' second thoughts ' });
    expect(byBody.statusCode, byBody.body).toBe(200);
    const [second, first] = (await log()).filter((a) => a.action === 'override.cleared');
    expect(first).toMatchObject({ action: 'override.cleared', actor: 'bob', reason: 'lab re-tested' });
    expect(second).toMatchObject({
      action: 'override.cleared',
      actor: 'admin-api',
      reason: 'second thoughts',
      details: { value: 12, cleared: { value: 12, reason: 'spot check', setBy: 'admin-api' } },
    });
  });

  it('clearing an override that is not there is 404; unknown vendors are 404', async () => {
    expect(expectError(await f.call('DELETE', '/vendors/apex/overrides/purity'), 404, 'not_found')).toBe(
      "Vendor 'apex' has no 'purity' override.",
    );
    expectError(await f.call('DELETE', '/vendors/nope/overrides/purity'), 404, 'not_found');
    expectError(
      await f.call('PUT', '/vendors/nope/overrides/purity', { value: 1, reason: 'x' }),
      404,
      'not_found',
    );
    expectError(await f.call('GET', '/overrides?vendor=nope'), 404, 'not_found');
  });

  it.each([
    [
      '/vendors/apex/overrides/tier',
      { value: 1, reason: 'x' },
      "Parameter 'field' must be one of coa, purity",
    ],
    ['/vendors/apex/overrides/coa', { value: 101, reason: 'x' }, "Parameter 'value' must be at most 100."],
    ['/vendors/apex/overrides/coa', { value: 1.5, reason: 'x' }, "Parameter 'value' must be an integer."],
    // JSON bodies are not coerced: null is refused, not read as 0 (an override cleared by DELETE only).
    ['/vendors/apex/overrides/coa', { value: null, reason: 'x' }, "Parameter 'value' must be an integer."],
    ['/vendors/apex/overrides/coa', { value: '50', reason: 'x' }, "Parameter 'value' must be an integer."],
    ['/vendors/apex/overrides/coa', { value: true, reason: 'x' }, "Parameter 'value' must be an integer."],
    ['/vendors/apex/overrides/coa', { value: 1 }, "Parameter 'reason' is required."],
    ['/vendors/apex/overrides/coa', { value: 1, reason: '   ' }, "Parameter 'reason' has an invalid format."],
    [
      '/vendors/apex/overrides/coa',
      { value: 1, reason: 'x', setBy: 'eve' },
      "Parameter 'setBy' is not recognised.",
    ],
  ])('PUT %s %j is 400 and writes nothing', async (url, body, message) => {
    const version = f.dataVersion();
    expect(expectError(await f.call('PUT', url, body), 400, 'invalid_parameter')).toContain(message);
    expect(f.dataVersion()).toBe(version);
  });
});
