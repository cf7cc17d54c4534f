import { describe, expect, it } from 'vitest';
import { decodeJsonLines, firstInvalidByte, type ImportLine } from '../../../src/core/import/json-lines.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

async function lines(chunks: Uint8Array[]): Promise<ImportLine[]> {
  const out: ImportLine[] = [];
  for await (const line of decodeJsonLines(chunks)) out.push(line);
  return out;
}

/** Every way of cutting `data` into two chunks, and into one chunk per byte. */
function* cuts(data: Uint8Array): Generator<Uint8Array[]> {
  yield [data];
  for (let i = 0; i <= data.length; i++) yield [data.subarray(0, i), data.subarray(i)];
  yield [...data].map((b) => Uint8Array.of(b));
}

describe('decodeJsonLines', () => {
  it('keeps a multi-byte character whole wherever the read chunks split it', async () => {
    // 2-, 3- and 4-byte sequences, and a CRLF, at every possible chunk boundary.
    const text = '{"name":"Café"}\r\n{"name":"€ 5"}\n{"name":"🧪 lab"}\n';
    const data = bytes(text);
    for (const chunks of cuts(data)) {
      expect(await lines(chunks)).toEqual(['{"name":"Café"}', '{"name":"€ 5"}', '{"name":"🧪 lab"}']);
    }
  });

  it('ends the last line at the end of the input, with or without a final LF', async () => {
    expect(await lines([bytes('a\nb')])).toEqual(['a', 'b']);
    expect(await lines([bytes('a\nb\n')])).toEqual(['a', 'b']);
    expect(await lines([bytes('a\n\nb\n\n')])).toEqual(['a', '', 'b', '']);
    expect(await lines([bytes('')])).toEqual([]);
    expect(await lines([])).toEqual([]);
  });

  it('drops the CR of a CRLF only; a lone CR stays in the line', async () => {
    expect(await lines([bytes('a\r\nb\rc\r\n')])).toEqual(['a', 'b\rc']);
  });

  it("drops the file's byte-order mark, and only that one", async () => {
    expect(await lines([bytes([0xef, 0xbb, 0xbf], 'a\n\u{feff}b\n')])).toEqual(['a', '\u{feff}b']);
    // A BOM split across chunks is still the BOM.
    expect(await lines([Uint8Array.of(0xef), bytes([0xbb, 0xbf], 'a')])).toEqual(['a']);
  });

  it('names each line that is not UTF-8, with the first bad byte, and decodes its neighbours', async () => {
    const data = bytes('{"a":1}\n', '{"name":"x', [0xff, 0xfe, 0xc3], '"}\n', '{"b":"é"}\n', [0xc3], '\n');
    for (const chunks of cuts(data)) {
      expect(await lines(chunks)).toEqual([
        '{"a":1}',
        { undecodable: true, byte: 11, value: 0xff },
        '{"b":"é"}',
        { undecodable: true, byte: 1, value: 0xc3 },
      ]);
    }
  });

  it('refuses what the WHATWG decoder refuses: overlong forms, surrogates, code points past U+10FFFF', async () => {
    for (const bad of [
      [0xc0, 0x80], // overlong NUL
      [0xe0, 0x80, 0x80], // overlong
      [0xed, 0xa0, 0x80], // U+D800, a surrogate
      [0xf4, 0x90, 0x80, 0x80], // U+110000
      [0xf5, 0x80, 0x80, 0x80],
      [0xe2, 0x82], // truncated €
      [0x80], // a continuation byte alone
    ]) {
      const [line] = await lines([bytes('ok ', bad, ' end')]);
      expect(line, JSON.stringify(bad)).toEqual({ undecodable: true, byte: 4, value: bad[0] });
    }
  });
});

describe('firstInvalidByte', () => {
  it('finds the first bad byte and passes good text', () => {
    expect(firstInvalidByte(bytes('héllo €🧪'))).toBe(bytes('héllo €🧪').length);
    expect(firstInvalidByte(bytes('ab', [0xc3, 0x28]))).toBe(2);
    expect(firstInvalidByte(bytes('é', [0xf0, 0x9f, 0xa7]))).toBe(2);
  });
});
