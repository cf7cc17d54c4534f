import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { ADMIN, type AdminFixture, adminAuth, expectError, setupAdmin } from '../admin/helpers.ts';
import { expectErrorAnswer, portOf, rawRequest } from './raw-socket.ts';

/*
 * Integer query parameters accept an optional minus sign and decimal digits, given once, within the
 * documented range; everything else is 400 `invalid_parameter` naming the parameter (decision 0017).
 * Before, Ajv's type coercion read `0x10` as 16, `1e3` as 1000, `%205` as 5 and `Infinity` as
 * Infinity (echoed as null, or a 500 from the database).
 */

/** [path and fixed query, parameter, authorization]. */
type Target = [string, string, 'key' | 'admin'];
const TARGETS: Target[] = [
  ['/v1/vendors?', 'page', 'key'],
  ['/v1/vendors?', 'per_page', 'key'],
  ['/v1/search?q=apex&', 'limit', 'key'],
  ['/api/v1/vendors?', 'limit', 'key'],
  ['/api/v1/vendors?', 'offset', 'key'],
  [`${ADMIN}/batches/pending?`, 'limit', 'admin'],
  [`${ADMIN}/batches/pending?`, 'offset', 'admin'],
  [`${ADMIN}/events?`, 'after', 'admin'],
  [`${ADMIN}/events?`, 'limit', 'admin'],
];

/** What follows `name` in the query string: each is refused. */
const LOOSE = [
  '=0x10',
  '=0b11',
  '=0o7',
  '=+5',
  '=%2B5',
  '=%205',
  '=5%20',
  '=%095',
  '=1e3',
  '=1E1',
  '=1e20',
  '=1e309',
  '=Infinity',
  '=-Infinity',
  '=NaN',
  '=1.0',
  '=1.5',
  '=.5',
  '=',
  '',
  '=-',
  '=--5',
  '=5abc',
  '=abc',
  '=%D9%A3', // an Arabic-Indic digit three
  '=%EF%BC%95', // a full-width digit five
  '=99999999999999999999',
  '=1&{name}=2',
];

describe.each(DIALECTS)('integer query parameters (%s)', (dialect) => {
  let f: AdminFixture;
  let port: number;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
    port = portOf(await f.ctx.app.listen({ port: 0, host: '127.0.0.1' }));
  });
  afterAll(async () => f?.ctx.close());

  const auth = (who: 'key' | 'admin') => (who === 'admin' ? adminAuth : bearer(f.key));
  const get = (url: string, who: 'key' | 'admin') => f.ctx.app.inject({ url, headers: auth(who) });

  describe.each(TARGETS)('%s%s', (path, name, who) => {
    it.each(LOOSE)(`${name}%s → 400 invalid_parameter naming it`, async (rest) => {
      const url = `${path}${name}${rest.replaceAll('{name}', name)}`;
      const message = expectError(await get(url, who), 400, 'invalid_parameter');
      expect(message).toContain(`'${name}'`);
    });

    it('over a real socket too (the fast path answers nothing of it)', async () => {
      const header = who === 'admin' ? `Bearer ${adminAuth.authorization.slice(7)}` : `Bearer ${f.key}`;
      for (const rest of LOOSE) {
        const target = `${path}${name}${rest.replaceAll('{name}', name)}`;
        const answer = await rawRequest(
          port,
          `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: ${header}\r\nConnection: close\r\n\r\n`,
        );
        expect(expectErrorAnswer(answer, 400, 'invalid_parameter'), target).toContain(`'${name}'`);
      }
    });
  });

  it('the 32-bit range is the outer bound, and the largest value is echoed exactly', async () => {
    const top = 2_147_483_647;
    const pending = await get(`${ADMIN}/batches/pending?offset=${top}`, 'admin');
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({ data: [], offset: top });
    expect(
      expectError(await get(`${ADMIN}/batches/pending?offset=${top + 1}`, 'admin'), 400, 'invalid_parameter'),
    ).toBe(`Parameter 'offset' must be at most ${top}.`);
    const events = await get(`${ADMIN}/events?after=${top}`, 'admin');
    expect(events.json()).toEqual({ data: [], next: null });
    expectError(await get(`${ADMIN}/events?after=${top + 1}`, 'admin'), 400, 'invalid_parameter');

    const pageA = await get(`/v1/vendors?page=${top}`, 'key');
    expect(pageA.statusCode).toBe(200);
    expect(pageA.json()).toMatchObject({ data: [], page: top });
    expectError(await get(`/v1/vendors?page=${top + 1}`, 'key'), 400, 'invalid_parameter');

    const offsetB = await get(`/api/v1/vendors?offset=${top}`, 'key');
    expect(offsetB.statusCode).toBe(200);
    expect(offsetB.json().data).toMatchObject({ vendors: [], offset: top });
    expectError(await get(`/api/v1/vendors?offset=${top + 1}`, 'key'), 400, 'invalid_parameter');
  });

  it.each([
    ['-5', 1],
    ['0', 1],
    ['007', 7],
    ['201', 200],
    ['2147483647', 200],
    ['-2147483648', 1],
  ])("B's limit=%s is a well-formed integer: clamped to %i and echoed", async (raw, applied) => {
    const res = await get(`/api/v1/vendors?limit=${raw}`, 'key');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.limit).toBe(applied);
  });

  it("B's limit past the 32-bit range is refused, not clamped", async () => {
    expect(
      expectError(await get('/api/v1/vendors?limit=99999999999999999999', 'key'), 400, 'invalid_parameter'),
    ).toBe("Parameter 'limit' must be at most 2147483647.");
    expect(expectError(await get('/api/v1/vendors?limit=-2147483649', 'key'), 400, 'invalid_parameter')).toBe(
      "Parameter 'limit' must be at least -2147483648.",
    );
  });

  it('range messages keep naming the schema bound', async () => {
    expect(expectError(await get('/v1/vendors?per_page=201', 'key'), 400, 'invalid_parameter')).toBe(
      "Parameter 'per_page' must be at most 200.",
    );
    expect(expectError(await get('/api/v1/vendors?offset=-1', 'key'), 400, 'invalid_parameter')).toBe(
      "Parameter 'offset' must be at least 0.",
    );
    expect(expectError(await get('/v1/search?q=a&limit=51', 'key'), 400, 'invalid_parameter')).toBe(
      "Parameter 'limit' must be at most 50.",
    );
    expect(expectError(await get(`${ADMIN}/events?limit=0`, 'admin'), 400, 'invalid_parameter')).toBe(
      "Parameter 'limit' must be at least 1.",
    );
  });
});
