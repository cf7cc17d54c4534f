import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJsonLines } from '../../../src/core/import/import-data.ts';
import { decodeJsonLines } from '../../../src/core/import/json-lines.ts';
import type { ImportLineError } from '../../../src/core/import/parse-import.ts';
import { dumpTables } from '../../storage/support.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type ImportHarness, jl, openImportHarness } from './support.ts';

/**
 * Text in an import is UTF-8 without control characters (docs/import-format.md, "Text"): bytes
 * that are not UTF-8 and control characters smuggled in as JSON escapes are errors named by line,
 * and nothing is written. Files go through decodeJsonLines, as `purerank import` and the operator
 * API send them.
 */
const SEED = [
  jl({ type: 'vendor', slug: 'alpha', name: 'Alpha' }),
  jl({
    type: 'review',
    id: 'rev-1',
    vendorSlug: 'alpha',
    rating: 5,
    title: 't',
    body: 'b',
    author: 'a',
    createdAt: '2026-05-01T00:00:00.000Z',
  }),
];

const review = (extra: Record<string, unknown>) =>
  jl({
    type: 'review',
    id: 'rev-2',
    vendorSlug: 'alpha',
    rating: 4,
    title: 'Fine',
    body: 'Fine.',
    author: 'kim',
    createdAt: '2026-05-02T00:00:00.000Z',
    ...extra,
  });

/** A file as bytes: strings are UTF-8, number arrays are raw bytes; lines are joined with LF. */
const file = (...lines: (string | (string | number[])[])[]): Uint8Array =>
  Buffer.concat(
    lines.flatMap((line) => [
      ...(Array.isArray(line) ? line : [line]).map((p) =>
        typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p),
      ),
      Buffer.from('\n'),
    ]),
  );

describe.each(DIALECTS)('import: text must be UTF-8 without control characters (%s)', (dialect) => {
  let h: ImportHarness;
  beforeAll(async () => {
    h = await openImportHarness(dialect);
    await h.ok(SEED);
  });
  afterAll(async () => h?.close());

  const run = (data: Uint8Array, chunk = data.length) => {
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < data.length; i += chunk) chunks.push(data.subarray(i, i + chunk));
    return importJsonLines(decodeJsonLines(chunks), { store: h.store.imports, clock: h.clock });
  };

  const expectRefused = async (data: Uint8Array, expected: [number, RegExp][]) => {
    const dump = await dumpTables(h.store.kysely);
    const state = await h.store.state.read();
    const result = await run(data);
    expect(result.ok).toBe(false);
    expect((result as { errors: ImportLineError[] }).errors).toEqual(
      expected.map(([line, message]) => ({ line, message: expect.stringMatching(message) })),
    );
    expect(await dumpTables(h.store.kysely)).toEqual(dump);
    expect(await h.store.state.read()).toEqual(state);
  };

  it('refuses bytes that are not UTF-8 (FF FE C3 in a vendor name), by line, and writes nothing', async () => {
    const before = '{"type":"vendor","slug":"mojibake","name":"Bad ';
    const cafe = '{"type":"vendor","slug":"latin1","name":"Caf';
    await expectRefused(
      file(jl({ type: 'vendor', slug: 'fine', name: 'Fine' }), [before, [0xff, 0xfe, 0xc3], ' name"}'], '', [
        cafe,
        [0xe9],
        '"}',
      ]),
      [
        [2, new RegExp(`^not valid UTF-8: byte 0xFF at byte ${before.length + 1} of the line$`)],
        [4, new RegExp(`^not valid UTF-8: byte 0xE9 at byte ${cafe.length + 1} of the line$`)],
      ],
    );
  });

  it('refuses control characters given as JSON escapes, naming the field and the character', async () => {
    await expectRefused(
      file(
        jl({ type: 'vendor', slug: 'bell', name: 'Be\u0007ll' }),
        jl({ type: 'vendor', slug: 'nul', name: 'ok', location: 'a\u0000b' }),
        jl({ type: 'vendor', slug: 'del', name: 'x\u007f' }),
        jl({ type: 'vendor', slug: 'c1', name: 'x\u0085y' }), // NEL, a C1 control
        jl({ type: 'vendor', slug: 'newline', name: 'two\nlines' }),
        review({ title: 'tab\there' }),
        review({ id: 'rev-3', body: 'windows\r\nline' }),
        jl({
          type: 'peptide',
          slug: 'p',
          name: 'P',
          category: 'c',
          molecularWeight: '1 Da',
          aliases: ['ok', 'b\u001bad'],
        }),
        jl({ type: 'override', vendorSlug: 'alpha', field: 'score', value: 50, reason: 'why\u0008' }),
        jl({
          type: 'reply',
          reviewId: 'rev-1',
          body: 'esc \u001b[31mred',
          createdAt: '2026-05-03T00:00:00.000Z',
        }),
      ),
      [
        [1, /^vendor\.name: contains a control character \(U\+0007\) at character 3$/],
        [2, /^vendor\.location: contains a control character \(U\+0000\) at character 2$/],
        [3, /^vendor\.name: .*\(U\+007F\) at character 2$/],
        [4, /^vendor\.name: .*\(U\+0085\) at character 2$/],
        [5, /^vendor\.name: .*\(U\+000A\) at character 4; this field is one line$/],
        [6, /^review\.title: .*\(U\+0009\) at character 4; this field is one line$/],
        [7, /^review\.body: .*\(U\+000D\) at character 8; use \\n alone for a line break$/],
        [8, /^peptide\.aliases\.1: .*\(U\+001B\) at character 2$/],
        [9, /^override\.reason: .*\(U\+0008\) at character 4$/],
        [10, /^reply\.body: .*\(U\+001B\) at character 5$/],
      ],
    );
  });

  it('refuses an unpaired surrogate escape, which would be stored as U+FFFD', async () => {
    await expectRefused(file('{"type":"vendor","slug":"half","name":"x\\ud83e y"}'), [
      [1, /^vendor\.name: contains an unpaired surrogate \(U\+D83E\) at character 2$/],
    ]);
  });

  it('stores multi-byte text exactly, whatever the chunking, and allows LF and TAB in long texts', async () => {
    const name = 'Café Ünïcödé — 🧪 Labs';
    const data = file(
      // An emoji as a surrogate-pair escape is one well-formed character.
      jl({ type: 'vendor', slug: 'unicode', name, description: 'Line one\n\tindented\nU+FFFD: \ufffd' }),
      '{"type":"vendor","slug":"escaped","name":"\\ud83e\\uddea"}',
      review({ body: 'Para one.\n\nPara two.\tTabbed.' }),
      jl({
        type: 'reply',
        reviewId: 'rev-1',
        body: 'Thanks!\nThe team',
        createdAt: '2026-05-03T00:00:00.000Z',
      }),
    );
    const result = await run(data, 3); // 3-byte chunks split every multi-byte character somewhere
    expect(result).toMatchObject({ ok: true, counts: { vendor: 2, review: 1, reply: 1 } });
    const vendors = await h.store.kysely
      .selectFrom('vendors')
      .select(['slug', 'name', 'description'])
      .where('slug', 'in', ['unicode', 'escaped'])
      .orderBy('slug')
      .execute();
    expect(vendors).toEqual([
      { slug: 'escaped', name: '🧪', description: '' },
      { slug: 'unicode', name, description: 'Line one\n\tindented\nU+FFFD: \ufffd' },
    ]);
  });
});
