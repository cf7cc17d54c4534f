import { deflateSync } from 'node:zlib';
import { buildPdf, HELVETICA, stream, textContent } from './raw-pdf.ts';

/**
 * Files built to exhaust a reader: thousands of pages, a page tree that claims more pages than it
 * has, objects nested tens of thousands deep, and a small stream that inflates to gigabytes. Each is
 * built in well under a second and cached per process.
 */

const cache = new Map<string, Uint8Array>();
const cached = (key: string, make: () => Uint8Array): Uint8Array => {
  let v = cache.get(key);
  if (!v) {
    v = make();
    cache.set(key, v);
  }
  return v;
};

/** `pages` real pages (default 5,000), each drawing the same short text. */
export function manyPagesPdf(pages = 5000): Uint8Array {
  return cached(`many:${pages}`, () => {
    const first = 5; // objects 1..4: catalog, page tree, font, shared content
    const kids = Array.from({ length: pages }, (_, i) => `${first + i} 0 R`).join(' ');
    const page =
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>';
    return buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
      HELVETICA,
      stream('', textContent(['Certificate of Analysis (continued)', 'Lot No.: MANY-1'])),
      ...Array.from({ length: pages }, () => page),
    ]);
  });
}

/** One real page in a page tree whose /Count claims `claimed` pages (default 100,000). */
export function lyingPageCountPdf(claimed = 100_000): Uint8Array {
  return cached(`lying:${claimed}`, () =>
    buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [3 0 R] /Count ${claimed} >>`,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      HELVETICA,
      stream('', textContent(['Certificate of Analysis', 'Lot No.: LIE-1'])),
    ]),
  );
}

/**
 * A one-page CoA whose page resources hold an array nested `depth` levels deep (default 50,000)
 * and a dictionary nested as deep: a recursive parser runs out of stack.
 */
export function deeplyNestedPdf(depth = 50_000): Uint8Array {
  return cached(`nested:${depth}`, () => {
    const array = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const dict = `${'<< /A '.repeat(depth)}1${' >>'.repeat(depth)}`;
    return buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /Properties << /Deep ${array} /Deeper ${dict} >> >> /Contents 5 0 R >>`,
      HELVETICA,
      stream('', textContent(['Certificate of Analysis', 'Lot No.: DEEP-1'])),
    ]);
  });
}

/**
 * A one-page CoA whose content stream is compressed twice (/Filter [/FlateDecode /FlateDecode]):
 * the file holds a few tens of KB, the first layer inflates to megabytes, the second to
 * `inflatedBytes` of zeros (default 4 GiB).
 */
export function decompressionBombPdf(inflatedBytes = 4 * 2 ** 30): Uint8Array {
  return cached(`bomb:${inflatedBytes}`, () => {
    const inner = deflatedZeros(inflatedBytes);
    const outer = deflateSync(inner, { level: 9 });
    return buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      HELVETICA,
      stream('/Filter [/FlateDecode /FlateDecode]', outer),
    ]);
  });
}

/**
 * A zlib stream of `n` zeros (rounded to 1 + 258 × 8k), written directly rather than by
 * compressing gigabytes: one fixed-Huffman block holding a literal 0 and then back-references of
 * length 258 at distance 1. After the first reference the bit stream is byte-aligned and repeats
 * every 8 references (13 bytes), so the body is one 13-byte pattern repeated.
 */
export function deflatedZeros(n: number): Uint8Array {
  const groups = Math.max(1, Math.ceil((n - 1 - 258) / (258 * 8)));
  const total = 1 + 258 + groups * 8 * 258;
  const bits = new BitWriter();
  bits.write(1, 1); // BFINAL
  bits.write(1, 2); // BTYPE = 01, fixed Huffman
  bits.huffman(0b00110000, 8); // literal 0
  bits.huffman(0b11000101, 8); // length code 285: 258
  bits.huffman(0b00000, 5); // distance code 0: 1
  const head = bits.take(); // 3 + 8 + 13 = 24 bits: aligned
  const group = new BitWriter();
  for (let i = 0; i < 8; i++) {
    group.huffman(0b11000101, 8);
    group.huffman(0b00000, 5);
  }
  const pattern = group.take(); // 104 bits = 13 bytes
  const tail = new BitWriter();
  tail.huffman(0, 7); // end of block (256)
  const end = tail.flush();
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(adler32Zeros(total));
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x78, 0x01]), head, Buffer.alloc(groups * 13, pattern), end, adler]),
  );
}

/** Adler-32 of n zero bytes: A stays 1, B gains 1 per byte. */
function adler32Zeros(n: number): number {
  return ((n % 65521) * 65536 + 1) >>> 0;
}

/** Deflate's bit order: values LSB first, Huffman codes MSB first. */
class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private count = 0;

  write(value: number, n: number): void {
    for (let i = 0; i < n; i++) this.push((value >> i) & 1);
  }

  huffman(code: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.push((code >> i) & 1);
  }

  /** The bytes written so far; the writer must be byte-aligned. */
  take(): Buffer {
    if (this.count !== 0) throw new Error('not byte-aligned');
    const out = Buffer.from(this.bytes);
    this.bytes = [];
    return out;
  }

  /** Pads the last byte with zero bits and returns everything. */
  flush(): Buffer {
    if (this.count > 0) this.push(0, 8 - this.count);
    return this.take();
  }

  private push(bit: number, times = 1): void {
    for (let t = 0; t < times; t++) {
      this.acc |= bit << this.count;
      if (++this.count === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.count = 0;
      }
    }
  }
}
