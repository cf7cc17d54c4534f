import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGER_PARAM_MAX, INTEGER_PARAM_MIN } from '../../../src/core/validation/integers.ts';
import { integerQueryParams, readIntegerParam } from '../../../src/http/integer-params.ts';
import { createTestContext, type TestContext } from '../../support/context.ts';

interface Parameter {
  in: string;
  name: string;
  schema?: { type?: string; minimum?: number; maximum?: number };
}

/** Every integer query parameter of every published document has a documented range (decision 0017). */
describe('documented ranges of integer query parameters', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
  });
  afterAll(async () => ctx?.close());

  it.each(['/v1/openapi.json', '/api/v1/openapi.json', '/admin/v1/openapi.json'])(
    '%s: each has a minimum and a maximum within the 32-bit range',
    async (url) => {
      const doc = (await ctx.app.inject({ url })).json() as {
        paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
      };
      const found: string[] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          for (const p of op.parameters ?? []) {
            if (p.in !== 'query' || p.schema?.type !== 'integer') continue;
            const where = `${method.toUpperCase()} ${path} ${p.name}`;
            found.push(where);
            expect(p.schema.minimum, where).toBeGreaterThanOrEqual(INTEGER_PARAM_MIN);
            expect(p.schema.maximum, where).toBeLessThanOrEqual(INTEGER_PARAM_MAX);
          }
        }
      }
      // The documents do have integer parameters to check (a walk over nothing proves nothing).
      expect(found.length).toBeGreaterThan(0);
    },
  );
});

describe('readIntegerParam (the rule both request paths apply)', () => {
  const bounds = { min: 1, max: 200 };
  it.each([
    ['1', 1],
    ['200', 200],
    ['007', 7],
    [undefined, undefined],
  ])('%s → %s', (raw, value) => {
    expect(readIntegerParam(raw, bounds)).toEqual({ ok: true, value });
  });

  it.each([
    ['0', 'must be at least 1.'],
    ['-3', 'must be at least 1.'],
    ['201', 'must be at most 200.'],
    ['99999999999999999999', 'must be at most 200.'],
    ['-99999999999999999999', 'must be at least 1.'],
    [['1', '2'], 'must be given only once.'],
    ['0x10', 'must be an integer.'],
    ['1e3', 'must be an integer.'],
    [' 5', 'must be an integer.'],
    ['+5', 'must be an integer.'],
    ['', 'must be an integer.'],
    ['Infinity', 'must be an integer.'],
  ])('%j → %s', (raw, phrase) => {
    expect(readIntegerParam(raw, bounds)).toEqual({ ok: false, phrase });
  });

  it('reads integer properties and their bounds from a schema, clipped to 32 bits', () => {
    expect(
      integerQueryParams({
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 50 },
          offset: { type: 'integer', minimum: 0 },
          any: { type: 'integer' },
          q: { type: 'string' },
        },
      }),
    ).toEqual([
      { name: 'limit', min: 1, max: 50 },
      { name: 'offset', min: 0, max: INTEGER_PARAM_MAX },
      { name: 'any', min: INTEGER_PARAM_MIN, max: INTEGER_PARAM_MAX },
    ]);
    expect(integerQueryParams(undefined)).toEqual([]);
  });
});
