/**
 * Bytes → lines for the import format (docs/import-format.md, "The file"). Every way a file comes
 * in (`purerank import FILE`, `purerank import -`, `POST /admin/v1/import`) goes through here, so
 * there is one rule for encodings and line endings:
 *
 * - a line ends at LF; a CR just before the LF is part of the line ending (CRLF);
 * - each line must be UTF-8. A line that is not is handed on as an `UndecodableLine`, which the
 *   parser reports by number, so a stray byte is an error rather than a silent U+FFFD;
 * - a line longer than MAX_LINE_BYTES is handed on as an `OverlongLine`, unread.
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

/** A line longer than the limit: its bytes were skipped, never decoded nor held. */
export interface OverlongLine {
  readonly overlong: true;
  /** The limit it broke, in bytes. */
  readonly limit: number;
}

/** One line of an import file: its text, or the reason it could not be read. */
export type ImportLine = string | UndecodableLine | OverlongLine;

/**
 * The longest line an import reads, in bytes (without its LF; a CR before it counts). The largest
 * real record (a vendor description or review body at its length limit, escaped) is far below
 * it. A longer line is a bad line without being decoded or parsed, and its bytes are not kept,
 * so a file that is one huge line costs no more memory than a short one.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Bytes decoded at a time. A request body arrives as one buffer of up to 64 MiB; decoding and
 * splitting it whole made one 64 MiB string and an array of every line (33 million for a body
 * of `x\n`). In slices, the text alive at once is one slice's.
 */
const SLICE_BYTES = 64 * 1024;

const LF = 0x0a;

export interface DecodeOptions {
  /** Defaults to MAX_LINE_BYTES (tests use a smaller one). */
  maxLineBytes?: number;
}

/**
 * Yields the lines of a JSON Lines document given as byte chunks (a file or socket stream, or one
 * request body). A final LF ends the last line; it does not start another.
 */
export async function* decodeJsonLines(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  opts: DecodeOptions = {},
): AsyncGenerator<ImportLine> {
  for await (const batch of decodeJsonLineBatches(chunks, opts)) yield* batch;
}

/**
 * As decodeJsonLines, but yields the lines a few at a time (those of at most SLICE_BYTES of
 * input, never an empty array): the import's hot path, where one await per line of a file of
 * millions of lines would cost more than the lines' own parsing.
 */
export async function* decodeJsonLineBatches(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  opts: DecodeOptions = {},
): AsyncGenerator<ImportLine[]> {
  const splitter = new LineSplitter(opts.maxLineBytes ?? MAX_LINE_BYTES);
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += splitter.slice) {
      const out = splitter.push(chunk.subarray(at, Math.min(chunk.length, at + splitter.slice)));
      if (out.length > 0) yield out;
    }
  }
  const out = splitter.end();
  if (out.length > 0) yield out;
}

/** The state between slices: the unfinished line, or the fact that it is being skipped. */
class LineSplitter {
  // fatal: a bad sequence throws instead of becoming U+FFFD. ignoreBOM: each decode() call is its
  // own stream, so without it a U+FEFF at the start of every line would vanish; the file's BOM is
  // dropped explicitly below instead.
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Bytes of the unfinished line, copied (a stream may reuse a chunk's memory). */
  private carry: Uint8Array[] = [];
  private carryBytes = 0;
  /** The current line is past the limit: its bytes are dropped up to its LF. */
  private skipping = false;
  private first = true;
  /**
   * Slice size, at most the limit: a line that lies inside one slice is then within the limit,
   * so only a line spanning slices (through `carry`) needs its length checked.
   */
  readonly slice: number;
  private readonly overlong: OverlongLine;

  constructor(private readonly limit: number) {
    this.slice = Math.max(1, Math.min(SLICE_BYTES, limit));
    this.overlong = { overlong: true, limit };
  }

  push(piece: Uint8Array): ImportLine[] {
    const out: ImportLine[] = [];
    let start = 0;
    if (this.skipping) {
      const lf = piece.indexOf(LF);
      if (lf < 0) return out;
      out.push(this.overlong);
      this.skipping = false;
      start = lf + 1;
    } else if (this.carryBytes > 0) {
      const lf = piece.indexOf(LF);
      const end = lf < 0 ? piece.length : lf;
      if (this.carryBytes + end > this.limit) {
        this.dropCarry();
        if (lf < 0) {
          this.skipping = true;
          return out;
        }
        out.push(this.overlong);
      } else if (lf < 0) {
        this.keep(piece);
        return out;
      } else {
        const line = concat([...this.carry, piece.subarray(0, lf + 1)]);
        this.dropCarry();
        this.split(line, true, out);
      }
      start = lf + 1;
    }
    const last = piece.lastIndexOf(LF);
    if (last >= start) {
      this.split(piece.subarray(start, last + 1), true, out);
      start = last + 1;
    }
    if (start < piece.length) {
      if (piece.length - start > this.limit) this.skipping = true;
      else this.keep(piece.subarray(start));
    }
    return out;
  }

  /** The file's last line, if it has no final LF. */
  end(): ImportLine[] {
    const out: ImportLine[] = [];
    if (this.skipping) out.push(this.overlong);
    else if (this.carryBytes > 0) this.split(concat(this.carry), false, out);
    this.skipping = false;
    this.dropCarry();
    return out;
  }

  private keep(bytes: Uint8Array): void {
    this.carry.push(bytes.slice());
    this.carryBytes += bytes.length;
  }

  private dropCarry(): void {
    this.carry = [];
    this.carryBytes = 0;
  }

  private split(region: Uint8Array, complete: boolean, out: ImportLine[]): void {
    const from = out.length;
    splitRegion(this.decoder, region, complete, out);
    if (this.first && out.length > from) {
      this.first = false;
      const line = out[from]!;
      if (typeof line === 'string' && line.charCodeAt(0) === 0xfeff) out[from] = line.slice(1);
    }
  }
}

/**
 * Appends the lines of `region`, which ends with LF when `complete` (else it is the file's last
 * line). Decodes the whole region in one call, the common case; only a region holding a bad byte
 * is decoded line by line, to name the bad lines and keep the good ones.
 */
function splitRegion(
  decoder: InstanceType<typeof TextDecoder>,
  region: Uint8Array,
  complete: boolean,
  out: ImportLine[],
): void {
  let text: string | null = null;
  try {
    text = decoder.decode(region);
  } catch {
    text = null;
  }
  if (text !== null) {
    const parts = text.split('\n');
    if (complete) parts.pop(); // the empty text after the region's final LF
    for (const part of parts) out.push(dropCr(part));
    return;
  }
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
