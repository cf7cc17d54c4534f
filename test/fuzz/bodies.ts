import fc from 'fast-check';
import { utf8 } from './raw-http.ts';
import type { Schema } from './spec.ts';
import type { FuzzWorld } from './target.ts';
import { HOSTILE_TEXT, stringText } from './values.ts';

/** A request body and the Content-Type it is sent with (undefined: no Content-Type header). */
export interface BodyCase {
  contentType?: string;
  /** Bytes (byte string). */
  body: string;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/json; charset=latin1',
  'application/json;;',
  'application/merge-patch+json',
  'application/x-ndjson',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  '*/*',
  'json',
  '',
];

/** Bodies that are not the JSON a route wants: broken, deep, huge, hostile or no text at all. */
const GARBAGE = [
  '',
  ' ',
  '{',
  '}',
  '{"a":',
  '[]',
  'null',
  'true',
  '"text"',
  '1',
  '1e400',
  '{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"x":"\u0000"}',
  "{'single':'quotes'}",
  '{"rows":[]}',
  '{"key":null}',
  '[{"type":"vendor"}]',
  'a=1&b=2',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"deep":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
  `{"big":"${'x'.repeat(200_000)}"}`,
  `${'{"type":"vendor","slug":"x","name":"y"}\n'.repeat(3)}`,
];

/** A JSON value that mostly satisfies `schema` (valid) or bends one rule of it (not valid). */
export function jsonFor(schema: Schema, world: FuzzWorld, valid: boolean, name = ''): fc.Arbitrary<unknown> {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const wrongType = fc.constantFrom<unknown>(null, true, 0, -1, 1.5, '', 'x', [], {}, 1e300, '1', 'Infinity');
  const right = fc.oneof(...types.map((t) => typed(t, schema, world, valid, name)));
  return valid ? right : fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: wrongType });
}

function typed(
  type: string | undefined,
  schema: Schema,
  world: FuzzWorld,
  valid: boolean,
  name: string,
): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 1_000_000;
      const inRange =
        type === 'integer'
          ? fc.integer({ min, max: Math.min(max, 2 ** 31) })
          : fc.double({ min, max, noNaN: true });
      return valid
        ? inRange
        : fc.oneof(inRange, fc.constantFrom(min - 1, max + 1, 2 ** 53 + 2, -0, 1e308, 0.5));
    }
    case 'array': {
      const items = jsonFor((schema.items ?? {}) as Schema, world, valid);
      const maxLength = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 5, 5);
      return fc.array(items, {
        minLength: valid ? ((schema.minItems as number | undefined) ?? 0) : 0,
        maxLength,
      });
    }
    case 'object':
      return objectFor(schema, world, valid);
    default: {
      if (schema.format === 'date-time') {
        const iso = fc
          .date({ min: new Date('2020-01-01'), max: new Date('2026-05-31'), noInvalidDate: true })
          .map((d) => d.toISOString());
        return valid
          ? iso
          : fc.oneof(
              iso,
              fc.constantFrom('2030-01-01T00:00:00Z', '2026-13-45T99:99:99Z', 'yesterday', '2026-06-01'),
            );
      }
      const text = stringText(name, schema, world, valid);
      return valid ? text : fc.oneof(text, fc.constantFrom(...HOSTILE_TEXT));
    }
  }
}

function objectFor(schema: Schema, world: FuzzWorld, valid: boolean): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields = Object.fromEntries(
    Object.entries(properties).map(([k, s]) => [k, jsonFor(s, world, valid, k)]),
  );
  const requiredKeys = valid ? [...required] : [];
  const base = fc.record(fields, { requiredKeys });
  if (valid) return base;
  return fc
    .tuple(base, fc.option(fc.constantFrom('unknown', '__proto__', 'constructor', ''), { nil: undefined }))
    .map(([o, extra]) => (extra === undefined ? o : { ...(o as object), [extra]: 1 }));
}

/** Import files: lines of records (valid-ish and not), blank lines, garbage lines. */
export function importBody(world: FuzzWorld): fc.Arbitrary<string> {
  const line = fc.oneof(
    fc.record({
      type: fc.constant('vendor'),
      slug: fc.stringMatching(/^fz-[a-z0-9]{1,12}$/),
      name: fc.string({ minLength: 1, maxLength: 30 }),
    }),
    fc.record({
      type: fc.constant('override'),
      vendorSlug: fc.constantFrom(...world.vendors),
      field: fc.constantFrom('coa', 'purity', 'sentiment', 'transparency', 'experience', 'score', 'nope'),
      value: fc.oneof(fc.integer({ min: -5, max: 105 }), fc.constant(null)),
      reason: fc.constantFrom('fuzz', ''),
    }),
    fc.record({
      type: fc.constantFrom('lab', 'peptide', 'price', 'batch', 'review', 'reply', 'claim', 'unknown', ''),
    }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const text = fc.oneof(
    { weight: 4, arbitrary: line.map((l) => JSON.stringify(l)) },
    { weight: 1, arbitrary: fc.constantFrom('', '   ', '{', 'not json', '\u0000', '\u00ff\u00fe\u00c3') },
  );
  return fc
    .tuple(fc.array(text, { maxLength: 6 }), fc.constantFrom('\n', '\r\n'))
    .map(([lines, eol]) => utf8(lines.join(eol)));
}

/** A body for an operation that takes one: mostly the right type with a JSON body, sometimes anything. */
export function bodyFor(
  body: { contentType: string; schema: Schema } | undefined,
  world: FuzzWorld,
  valid: boolean,
): fc.Arbitrary<BodyCase | undefined> {
  const declared = body?.contentType ?? 'application/json';
  const content =
    declared === 'application/x-ndjson'
      ? importBody(world)
      : jsonFor(body?.schema ?? { type: 'object' }, world, valid).map((v) =>
          utf8(JSON.stringify(v) ?? 'null'),
        );
  const right = content.map((b): BodyCase => ({ contentType: declared, body: b }));
  if (valid) return body ? right : fc.constant(undefined);
  return fc.oneof(
    { weight: 5, arbitrary: right },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...GARBAGE), fc.constantFrom(declared, 'application/json'))
        .map(([b, t]) => ({ contentType: t, body: utf8(b) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(content, fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }))
        .map(([b, t]): BodyCase => (t === undefined ? { body: b } : { contentType: t, body: b })),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      // Invalid UTF-8 inside otherwise good JSON.
      weight: 1,
      arbitrary: content.map((b) => ({
        contentType: declared,
        body: b.replace(/"([^"]*)"/, '"$1\u00ff\u00fe\u00c3"'),
      })),
    },
  );
}
