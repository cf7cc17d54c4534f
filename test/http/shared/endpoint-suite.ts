import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { authChecks } from './auth-checks.ts';
import { etagChecks } from './etag-checks.ts';
import { paramChecks } from './param-checks.ts';
import { planChecks } from './plan-checks.ts';
import { rateChecks } from './rate-checks.ts';
import { SuiteState } from './suite-state.ts';
import type { Answer, TransportKind } from './transport.ts';
import type { EndpointUnderTest, VariantUnderTest } from './variant.ts';

const PATHS: Record<TransportKind, string> = {
  inject: 'in-process (inject: the framework path)',
  socket: 'over a real socket (the fast path answers cached reads)',
};

/**
 * The checks every endpoint of every variant must pass — auth cases, the error body, rate-limit
 * headers and the 429, plan gates, parameter boundaries, ETag/304 — defined once and run for one
 * variant over one request path, on every dialect.
 */
export function defineEndpointSuite(variant: VariantUnderTest, kind: TransportKind): void {
  describe.each(DIALECTS)(`${variant.name} shared endpoint checks, ${PATHS[kind]} (%s)`, (dialect) => {
    const s = new SuiteState(variant, kind);
    beforeAll(async () => s.open(dialect));
    afterAll(async () => s.close());

    describe.each(variant.endpoints)('$name', (endpoint) => {
      let servedAtStart = 0;
      beforeAll(() => {
        servedAtStart = s.ctx.app.fastPath.served;
        s.fastExpected = 0;
      });
      authChecks(s, endpoint);
      planChecks(s, endpoint);
      rateChecks(s, endpoint);
      etagChecks(s, endpoint);
      paramChecks(s, endpoint);
      fastPathShare(s, endpoint, () => servedAtStart);
    });

    dataChangeCheck(s);
  });
}

/** Which path answered: over a socket the fast path took the repeat successes; inject() never reaches it. */
function fastPathShare(s: SuiteState, { url }: EndpointUnderTest, servedAtStart: () => number): void {
  const title =
    s.kind === 'socket'
      ? 'the fast path answered the repeat successes (fastPath.served grew)'
      : 'inject() never reached the fast path';
  it(title, () => {
    const served = s.ctx.app.fastPath.served - servedAtStart();
    if (s.kind === 'inject') return expect(served, url).toBe(0);
    expect(served, url).toBeGreaterThan(0);
    expect(served, url).toBeGreaterThanOrEqual(s.fastExpected);
  });
}

function dataChangeCheck(s: SuiteState): void {
  it('an import changes the bodies, so an old ETag no longer matches, on either path', async () => {
    const { endpoints, dataChange } = s.variant;
    const before = new Map<string, Answer>();
    for (const { url } of endpoints) before.set(url, await s.send(url, s.auth('enterprise')));
    s.ctx.clock.advance(HOUR_MS);
    const r = await s.ctx.load(dataChange.records);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    for (const { url } of endpoints) {
      const old = before.get(url)!;
      expect(old.statusCode, url).toBe(200);
      const res = await s.send(url, { ...s.auth('enterprise'), 'if-none-match': old.headers.etag! });
      const same = dataChange.sameBody(url);
      if (same) {
        // The body did not change: the same bytes keep the same ETag (it describes the body).
        expect(res.statusCode, url).toBe(304);
      } else {
        expect(res.statusCode, url).toBe(200);
        expect(res.headers.etag, url).not.toBe(old.headers.etag);
        expect(res.body, url).not.toBe(old.body);
      }
      // Nothing answers from the old data any more (over a socket: the fast path answers the repeat).
      for (const plain of await s.answers(url, s.auth('enterprise'))) {
        expect(plain.statusCode, url).toBe(200);
        expect(plain.body, url).toBe(same ? old.body : res.body);
        expect(plain.headers.etag, url).toBe(same ? old.headers.etag : res.headers.etag);
      }
    }
  });
}
