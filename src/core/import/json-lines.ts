/**
 * Bytes → lines for the import format (docs/import-format.md, "The file"). Every way a file comes
 * in (`purerank import FILE`, `purerank import -`, `POST /admin/v1/import`) goes through here, so
 * there is one rule for encodings and line endings:
 *
 * - a line ends at LF; a CR just before the LF is part of the line ending (CRLF);
 * - each line must be UTF-8. A line that is not is handed on as an `UndecodableLine`, which the
 *   parser reports by number, so a stray byte is an error rather than a silent U+FFFD.
 *
 * Lines are split on the LF byte before decoding. 0x0A never occurs inside a multi-byte UTF-8
 * sequence, so a character split across two read chunks is simply joined with the rest of its
 * line, and one bad line cannot make its neighbours undecodable.
 */

/** A line whose bytes are not valid UTF-8. */
export interface UndecodableLine {
  readonly undecodable: true;
  /** 1-based byte position of the first byte that is not valid UTF-8, within the line. */
  readonly byte: number;
  /** That byte's value (0–255). */
  readonly value: number;
}

/** One line of an import file: its text, or the fact that it could not be decoded. */
export type ImportLine = string | UndecodableLine;

const LF = 0x0a;

/**
 * Yields the lines of a JSON Lines document given as byte chunks (a file or socket stream, or one
 * request body). A final LF ends the last line; it does not start another.
 */
export async function* decodeJsonLines(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<ImportLine> {
  // fatal: a bad sequence throws instead of becoming U+FFFD. ignoreBOM: each decode() call is its
  // own stream, so without it a U+FEFF at the start of every line would vanish; the file's BOM is
  // dropped explicitly below instead.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Bytes of the unfinished line, copied (a stream may reuse a chunk's memory). */
  let carry: Uint8Array[] = [];
  let first = true;
  const lines = (region: Uint8Array, complete: boolean): ImportLine[] => {
    const out = splitRegion(decoder, region, complete);
    if (first && out.length > 0) {
      first = false;
      const line = out[0]!;
      if (typeof line === 'string' && line.charCodeAt(0) === 0xfeff) out[0] = line.slice(1);
    }
    return out;
  };
  for await (const chunk of chunks) {
    const last = chunk.lastIndexOf(LF);
    if (last < 0) {
      if (chunk.length > 0) carry.push(chunk.slice());
      continue;
    }
    const head = chunk.subarray(0, last + 1);
    const region = carry.length > 0 ? concat([...carry, head]) : head;
    carry = last + 1 < chunk.length ? [chunk.slice(last + 1)] : [];
    yield* lines(region, true);
  }
  if (carry.length > 0) yield* lines(concat(carry), false);
}

/**
 * The lines of `region`, which ends with LF when `complete` (else it is the file's last line).
 * Decodes the whole region in one call, the common case; only a region holding a bad byte is
 * decoded line by line, to name the bad lines and keep the good ones.
 */
function splitRegion(
  decoder: InstanceType<typeof TextDecoder>,
  region: Uint8Array,
  complete: boolean,
): ImportLine[] {
  let text: string | null = null;
  try {
    text = decoder.decode(region);
  } catch {
    text = null;
  }
  if (text !== null) {
    const parts = text.split('\n');
    if (complete) parts.pop(); // the empty text after the region's final LF
    for (let i = 0; i < parts.length; i++) parts[i] = dropCr(parts[i]!);
    return parts;
  }
  const out: ImportLine[] = [];
  let start = 0;
  while (start < region.length) {
    let end = region.indexOf(LF, start);
    if (end < 0) end = region.length;
    const bytes = region.subarray(start, end);
    try {
      out.push(dropCr(decoder.decode(bytes)));
    } catch {
      const at = firstInvalidByte(bytes);
      out.push({ undecodable: true, byte: at + 1, value: bytes[at] ?? 0 });
    }
    start = end + 1;
  }
  return out;
}

const dropCr = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Index of the first byte that does not belong to a well-formed UTF-8 sequence (the rules of the
 * WHATWG decoder: no overlong forms, no surrogates, nothing above U+10FFFF). Only called on bytes
 * the decoder refused, to say where; returns the length if it finds nothing.
 */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      // A truncated or broken sequence: the lead byte is where it goes wrong.
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}
