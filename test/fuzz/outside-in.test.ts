import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.ts';
import { expectValidOpenApi31 } from '../support/openapi.ts';
import { checkResponse } from './checks.ts';
import { reproduction } from './findings.ts';
import { type Fuzzer, startFuzzer } from './harness.ts';
import { utf8, type WireRequest, type WireResponse } from './raw-http.ts';
import { VARIANT_DESCRIPTIONS, VARIANTS } from './requests.ts';
import { PREFIXES } from './target.ts';

/*
 * Outside-in, property-based: requests generated from the served OpenAPI documents go over a real
 * socket to a real server (demo dataset, SQLite and PostgreSQL, operator API on). For every answer: no 5xx, the
 * documented error body with status = HTTP status and the request id of the x-request-id header,
 * nothing internal in any body, and every 2xx body valid against its documented schema.
 * `npm test` sends FUZZ_RUNS (default 100) per family and database; `npm run fuzz -- --runs N` sends more and
 * reports every failure class (docs/reliability.md). FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

describe.each(DIALECTS)('outside in: generated requests over a real socket (%s)', (dialect) => {
  let fuzzer: Fuzzer;
  beforeAll(async () => {
    fuzzer = await startFuzzer(dialect);
  });
  afterAll(async () => fuzzer?.close());

  it('fuzzes from the three served documents, each valid OpenAPI 3.1', async () => {
    for (const prefix of PREFIXES) await expectValidOpenApi31(fuzzer.target.documents[prefix]!);
    const byPrefix = (p: string) => fuzzer.api.operations.filter((op) => op.prefix === p).length;
    expect(PREFIXES.map(byPrefix).every((n) => n > 0)).toBe(true);
  });

  it.each(VARIANTS)(
    '%s',
    async (variant) => {
      await fc.assert(
        fc.asyncProperty(fuzzer.arbitrary(variant), async (req) => {
          const { res, problems } = await fuzzer.probe(req);
          if (problems.length) {
            const lines = problems.map((p) => `${p.kind} · ${p.where}: ${p.detail.slice(0, 400)}`);
            throw new Error(
              `${VARIANT_DESCRIPTIONS[variant]}\nanswered ${res.status}\n${lines.join('\n')}\n` +
                `${reproduction(req, fuzzer.target.world).slice(0, 1500)}`,
            );
          }
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    },
    120_000,
  );
});

/** The oracle must fail on what it exists to catch, or the properties above prove nothing. */
describe('the fuzz oracle', () => {
  let fuzzer: Fuzzer;
  beforeAll(async () => {
    fuzzer = await startFuzzer();
  });
  afterAll(async () => fuzzer?.close());

  const get = (target: string): WireRequest => ({ method: 'GET', target, headers: [] });
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}): WireResponse => ({
    status,
    body: utf8(typeof body === 'string' ? body : JSON.stringify(body)),
    headers: new Map(
      Object.entries({ 'content-type': 'application/json', ...headers }).map(([k, v]) => [k, [v]]),
    ),
    ms: 1,
  });
  const error = (status: number, code: string, id = 'req-1') => ({
    error: { code, message: 'm', status, request_id: id },
  });
  const kinds = (req: WireRequest, res: WireResponse) =>
    checkResponse(fuzzer.api, req, res).map((p) => p.kind);

  it('accepts the documented error body and a 2xx that fits its schema', async () => {
    expect(
      kinds(get('/v1/vendors/nope'), answer(404, error(404, 'not_found'), { 'x-request-id': 'req-1' })),
    ).toEqual([]);
    const { res } = await fuzzer.probe({
      method: 'GET',
      target: '/api/v1/vendors?limit=2',
      headers: [['Authorization', `Bearer ${fuzzer.target.world.custom}`]],
    });
    expect(res.status).toBe(200);
    expect(kinds(get('/api/v1/vendors?limit=2'), res)).toEqual([]);
  });

  it('flags a 5xx, a framework body, a status mismatch, a missing request id and a leak', () => {
    const id = { 'x-request-id': 'req-1' };
    expect(kinds(get('/v1/vendors'), answer(500, error(500, 'internal_error'), id))).toEqual(['5xx']);
    expect(
      kinds(
        get('/v1/vendors'),
        answer(400, { error: 'Bad Request', message: 'Client Error', statusCode: 400 }, id),
      ),
    ).toEqual(['error-body']);
    expect(kinds(get('/v1/vendors'), answer(400, error(404, 'not_found'), id))).toEqual(['error-body']);
    expect(kinds(get('/v1/vendors'), answer(400, error(400, 'invalid_parameter')))).toEqual(['error-body']);
    expect(kinds(get('/v1/vendors'), answer(400, error(400, 'invalid_parameter', 'other'), id))).toEqual([
      'error-body',
    ]);
    expect(kinds(get('/v1/vendors'), answer(400, '', id))).toEqual(['error-body']);
    const leaky = {
      error: {
        ...error(400, 'x').error,
        message: 'SqliteError: datatype mismatch\n    at run (/work/main/src/x.ts:1:2)',
      },
    };
    expect(kinds(get('/v1/vendors'), answer(400, leaky, id))).toEqual(['leak']);
  });

  it('flags a 2xx body that breaks its schema, and no answer at all', () => {
    expect(kinds(get('/api/v1/vendors'), answer(200, { data: { vendors: [] } }))).toEqual(['schema']);
    expect(kinds(get('/v1/vendors'), answer(200, 'not json'))).toEqual(['schema']);
    const none: WireResponse = { status: 0, headers: new Map(), body: '', failure: 'timeout', ms: 5000 };
    expect(kinds(get('/v1/vendors'), none)).toEqual(['no-answer']);
  });

  it('flags a 2xx for an integer parameter that is not plain decimal digits once, in range', async () => {
    const { res } = await fuzzer.probe({
      method: 'GET',
      target: '/api/v1/vendors?limit=2',
      headers: [['Authorization', `Bearer ${fuzzer.target.world.custom}`]],
    });
    for (const loose of [
      'limit=0x10',
      'limit=%2B5',
      'limit=1e1',
      'limit=1&limit=2',
      'offset=-1',
      'limit=',
      'offset=2147483648',
    ])
      expect(kinds(get(`/api/v1/vendors?${loose}`), res), loose).toEqual(['loose-integer']);
    for (const fine of ['limit=5', 'limit=-5', 'limit=9999', 'offset=0', 'foo=0x10'])
      expect(kinds(get(`/api/v1/vendors?${fine}`), res), fine).toEqual([]);
  });

  it('tells an echo of the request from a leak', () => {
    const echo = {
      error: { ...error(404, 'not_found').error, message: "Vendor 'SqliteError' not found." },
    };
    expect(kinds(get('/v1/vendors/SqliteError'), answer(404, echo, { 'x-request-id': 'req-1' }))).toEqual([]);
  });
});
