import { inflateSync } from 'node:zlib';

/**
 * Refuses decompression bombs before pdfjs sees them. pdfjs inflates a stream into one growing
 * buffer that lives outside the V8 heap, so the worker's heap limit cannot stop a small stream
 * that inflates to gigabytes. This pass inflates every stream that looks zlib-compressed with
 * node:zlib's `maxOutputLength`, including streams compressed twice or more (a filter chain of
 * FlateDecode), and answers false once the total would pass `maxTotal` bytes. It over-counts at
 * worst (it may inflate a stream pdfjs would skip); it never lets a bomb through uncounted.
 */
export function inflatedSizeWithin(pdf: Uint8Array, maxTotal: number): boolean {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let budget = maxTotal;
  let from = 0;
  for (;;) {
    const start = buf.indexOf('stream', from, 'latin1');
    if (start < 0) return true;
    from = start + 6;
    // `endstream` also contains `stream`: skip it.
    if (start >= 3 && buf.toString('latin1', start - 3, start) === 'end') continue;
    let body = from;
    // pdfjs skips to the next line, spaces included; so does this.
    while (buf[body] === 0x20 || buf[body] === 0x09) body++;
    if (buf[body] === 0x0d) body++;
    if (buf[body] === 0x0a) body++;
    // The stream's own /Length when it is a number in its dictionary (what pdfjs reads), so
    // `endstream` bytes planted inside the data do not cut the check short; else up to `endstream`.
    const declared = directLength(buf, start);
    const end = buf.indexOf('endstream', body, 'latin1');
    const stop =
      declared !== null && body + declared <= buf.length
        ? Math.max(body + declared, end < 0 ? 0 : end)
        : end < 0
          ? buf.length
          : end;
    let data: Buffer = buf.subarray(body, stop);
    // Layer by layer: a stream inflating to another zlib stream is a filter chain.
    for (let layer = 0; layer < 8 && looksZlib(data); layer++) {
      try {
        data = inflateSync(data, { maxOutputLength: Math.max(1, budget), finishFlush: 2 });
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return false;
        break; // Not zlib after all, or damaged: pdfjs decides what to make of it.
      }
      budget -= data.length;
      if (budget < 0) return false;
    }
    from = stop;
  }
}

/** `/Length N` in the dictionary just before `stream` (not an indirect `N 0 R`), or null. */
function directLength(buf: Buffer, streamAt: number): number | null {
  const dictStart = buf.lastIndexOf('<<', streamAt, 'latin1');
  if (dictStart < 0 || streamAt - dictStart > 4096) return null;
  const dict = buf.toString('latin1', dictStart, streamAt);
  const m = /\/Length\s+(\d{1,10})(?!\d)(?!\s+\d+\s+R)/.exec(dict);
  return m ? Number(m[1]) : null;
}

/** A zlib header: CM = 8 (deflate), and the header checksum holds. */
function looksZlib(b: Buffer): boolean {
  if (b.length < 2) return false;
  const cmf = b[0] ?? 0;
  const flg = b[1] ?? 0;
  return (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0;
}
