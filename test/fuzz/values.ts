import fc from 'fast-check';
import { utf8 } from './raw-http.ts';
import type { Parameter, Schema } from './spec.ts';
import type { FuzzWorld } from './target.ts';

/*
 * Parameter values. Each generator yields TEXT (what the client means); `encoded` and `oddlyEncoded`
 * turn it into the BYTES that go in a URL (byte strings, see raw-http.ts).
 */

/** Spellings of numbers that a strict integer parameter must refuse (or, in range, accept). */
export const NUMBER_FORMS = [
  '',
  '0',
  '-0',
  '00',
  '007',
  '1.0',
  '1.5',
  '-1',
  '1e1',
  '1e20',
  '1e309',
  '-1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '0x10',
  '0b11',
  '0o7',
  '+5',
  ' 5',
  '5 ',
  '5abc',
  'abc',
  'true',
  'null',
  '[]',
  '1,2',
  '١٢',
  '５',
  '9007199254740993',
  '99999999999999999999',
  '-99999999999999999999',
  '2147483648',
  '4294967296',
];

/** Text that has hurt services before: injection, traversal, odd Unicode, control characters. */
export const HOSTILE_TEXT = [
  "' or '1'='1",
  "'; drop table vendors; --",
  '" or ""="',
  '%',
  '%%',
  '_',
  '\\',
  '../../etc/passwd',
  '..',
  '.',
  '<script>alert(1)</script>',
  '$' + '{7*7}', // a template-injection probe
  '{{7*7}}',
  '\u0000',
  '\u0001\u001f\u007f',
  '\r\nX-Injected: 1',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  'e\u0301\u0301\u0301',
  '\ud83d\ude00\ud83c\udff3\ufe0f\u200d\ud83c\udf08',
  '\ufeff',
  '\ufffd',
  '\ud800',
  'A'.repeat(300),
  'é'.repeat(120),
];

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Standard percent-encoding of the UTF-8 bytes of `text`, as bytes for the wire. */
export function encoded(text: string): string {
  let out = '';
  for (const ch of utf8(text)) {
    out += UNRESERVED.test(ch) ? ch : `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Ways to put `text` in a URL that a careless decoder gets wrong. */
export function oddlyEncoded(text: string): fc.Arbitrary<string> {
  const bytes = utf8(text);
  const all = [...bytes].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  return fc.oneof(
    fc.constant(all), // every byte encoded, lower-case hex
    fc.constant(all.toUpperCase()),
    fc.constant(bytes), // raw bytes: spaces, UTF-8, controls as they are
    fc.constant(encoded(text).replaceAll('%20', '+')),
    fc.constant(encoded(text).replaceAll('%', '%25')), // double encoding
    fc
      .tuple(
        fc.nat({ max: bytes.length }),
        fc.constantFrom(
          '%',
          '%G1',
          '%zz',
          '%4',
          '%%',
          '%C0%AF', // overlong '/'
          '%E0%80%AF', // overlong '/', three bytes
          '%C0%80', // overlong NUL
          '%F0%80%80%AF',
          '%FF',
          '%FE%FF',
          '%C3',
          '%ED%A0%80', // a UTF-16 surrogate in UTF-8
          '%F4%90%80%80', // above U+10FFFF
          '%00',
          '\u0000',
          '%2F',
          '%2f..%2f',
          '%5C',
          '%0D%0A',
          ' ',
          '\t',
          '+',
          '%20',
          '#',
          '?',
          ';',
          '&',
          '=',
          '\u00c3\u00a9', // a raw 'é' in UTF-8
          '\u00ff', // a raw byte that is no UTF-8
        ),
      )
      .map(([at, odd]) => encoded(text.slice(0, at)) + odd + encoded(text.slice(at))),
  );
}

/** Text for an integer parameter: mostly in and around its range, sometimes any odd spelling. */
export function integerText(schema: Schema, valid: boolean): fc.Arbitrary<string> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : min + 1000;
  const inRange = fc.integer({ min, max }).map(String);
  if (valid) return inRange;
  return fc.oneof(
    { weight: 2, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom(min - 1, min, max, max + 1, max * 10).map(String) },
    { weight: 3, arbitrary: fc.constantFrom(...NUMBER_FORMS) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
  );
}

/** Known-good values by parameter name, so that generated requests also find things. */
function pool(name: string, world: FuzzWorld): string[] {
  switch (name) {
    case 'slug':
    case 'vendor':
    case 'vendorSlug':
      return world.vendors;
    case 'batchId':
      return world.batchIds;
    case 'name':
    case 'account':
      return world.accounts;
    case 'id':
      return world.reviewIds;
    case 'category':
      return world.categories;
    case 'lab':
      return world.labs;
    case 'q':
      return [...world.peptides, ...world.vendors.map((v) => v.split('-')[0]!), 'bpc 157', 'BPC157', 'tb'];
    default:
      return [];
  }
}

/** Text for a string parameter: real values, schema boundaries, random and hostile text. */
export function stringText(
  name: string,
  schema: Schema,
  world: FuzzWorld,
  valid: boolean,
): fc.Arbitrary<string> {
  const known = [...pool(name, world), ...((schema.enum as string[] | undefined) ?? [])];
  // Path slugs of peptides live under /peptides/{slug}: let those draw from both pools.
  if (name === 'slug') known.push(...world.peptides);
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const plain = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/);
  if (valid)
    return known.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, plain) : plain;
  return fc.oneof(
    { weight: 4, arbitrary: known.length ? fc.constantFrom(...known) : plain },
    { weight: 2, arbitrary: plain },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'x'.repeat(Math.max(min, 1)), 'x'.repeat(max), 'x'.repeat(max + 1)),
    },
    { weight: 1, arbitrary: fc.constantFrom('y'.repeat(5000), 'é'.repeat(max)) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
    { weight: 1, arbitrary: fc.constantFrom(...NUMBER_FORMS) },
    {
      weight: 1,
      arbitrary: known.length
        ? fc.constantFrom(...known).chain((k) => fc.constantFrom(k.toUpperCase(), ` ${k} `, `${k}/`, `${k}x`))
        : plain,
    },
  );
}

/** Text for any parameter of the documents. */
export function paramText(p: Parameter, world: FuzzWorld, valid: boolean): fc.Arbitrary<string> {
  return p.schema.type === 'integer'
    ? integerText(p.schema, valid)
    : stringText(p.name, p.schema, world, valid);
}
