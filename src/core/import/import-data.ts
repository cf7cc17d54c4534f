import type { Clock } from '../clock.ts';
import type { ImportCounts, ImportStore } from '../ports.ts';
import type { ImportLine } from './json-lines.ts';
import { type ImportLineError, ImportParser } from './parse-import.ts';
import { emptyImportBatch, type ImportBatch, RECORD_TYPES } from './records.ts';

export type ImportResult =
  | { ok: true; lines: number; counts: ImportCounts }
  | {
      ok: false;
      lines: number;
      /** The first errors, in line order: at most `maxListed` (MAX_LISTED_ERRORS by default). */
      errors: ImportLineError[];
      /** Every error, listed or not. */
      errorCount: number;
      /** Lines with at least one error. */
      badLines: number;
    };

export interface ImportProgress {
  phase: 'parse' | 'write';
  /** Lines parsed, or records written. */
  done: number;
  total?: number;
}

export interface ImportOptions {
  reason?: string;
  onProgress?: (p: ImportProgress) => void;
  /** How many errors the result lists (the rest are counted). */
  maxListed?: number;
}

/** The slice of the store an import needs (the Kysely store also offers chunked apply). */
export interface ImportWriter extends ImportStore {
  applyChunks(
    chunks: Iterable<ImportBatch>,
    opts: { nowIso: string; reason: string; onChunk?: (counts: ImportCounts) => void },
  ): Promise<ImportCounts>;
}

const WRITE_CHUNK = 5000;
const PROGRESS_EVERY = 10_000;
/** Lines handed to the parser per batch when the caller gives them one at a time. */
const LINE_BATCH = 4096;
/**
 * The longest the parse runs without letting the event loop turn, in ms. The parse is
 * synchronous work on lines already in memory; in a server (the operator API) other requests
 * wait for it, so it yields this often. The write that follows is one transaction, which on
 * SQLite (better-sqlite3, synchronous) holds the loop for its whole length: see
 * docs/reliability.md, "Large imports".
 */
const YIELD_AFTER_MS = 10;

/**
 * Imports a JSON Lines document: all or nothing. Every bad line is counted and the first ones
 * are reported with their number and reason, and then nothing is written; a good file is
 * upserted in one transaction, so importing the same file twice leaves the data as it was after
 * the first time.
 */
export function importJsonLines(
  lines: AsyncIterable<ImportLine> | Iterable<ImportLine>,
  deps: { store: ImportWriter; clock: Clock },
  opts: ImportOptions = {},
): Promise<ImportResult> {
  return importJsonLineBatches(batched(lines), deps, opts);
}

/**
 * importJsonLines for lines given a few at a time (json-lines.ts, decodeJsonLineBatches): what
 * the CLI and the operator API use, so a file of millions of lines costs no await per line.
 */
export async function importJsonLineBatches(
  batches: AsyncIterable<readonly ImportLine[]> | Iterable<readonly ImportLine[]>,
  deps: { store: ImportWriter; clock: Clock },
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const parser = new ImportParser(
    deps.clock.now(),
    opts.maxListed === undefined ? {} : { maxListed: opts.maxListed },
  );
  let n = 0;
  let nextProgress = PROGRESS_EVERY;
  let lastYield = performance.now();
  for await (const batch of batches) {
    for (const line of batch) parser.addLine(line, ++n);
    if (n >= nextProgress) {
      opts.onProgress?.({ phase: 'parse', done: n });
      nextProgress = n + PROGRESS_EVERY;
    }
    if (performance.now() - lastYield >= YIELD_AFTER_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
  }
  opts.onProgress?.({ phase: 'parse', done: n });
  const existing = await deps.store.existingKeys(parser.batch);
  const errors = parser.finish(existing);
  if (parser.errorCount > 0) {
    return { ok: false, lines: n, errors, errorCount: parser.errorCount, badLines: parser.badLines };
  }
  const total = RECORD_TYPES.reduce((s, t) => s + parser.batch[t].length, 0);
  let written = 0;
  const counts = await deps.store.applyChunks(splitBatch(parser.batch, WRITE_CHUNK), {
    nowIso: new Date(deps.clock.now()).toISOString(),
    reason: opts.reason ?? 'import',
    onChunk: (c) => {
      written = Object.values(c).reduce((s, x) => s + x, 0);
      opts.onProgress?.({ phase: 'write', done: written, total });
    },
  });
  return { ok: true, lines: n, counts };
}

/** Groups lines given one at a time into arrays, for importJsonLineBatches. */
async function* batched(
  lines: AsyncIterable<ImportLine> | Iterable<ImportLine>,
): AsyncGenerator<ImportLine[]> {
  let batch: ImportLine[] = [];
  for await (const line of lines) {
    batch.push(line);
    if (batch.length === LINE_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Splits one import into chunks that keep the dependency order (referenced types first). */
export function* splitBatch(batch: ImportBatch, size: number): Generator<ImportBatch> {
  let current = emptyImportBatch();
  let count = 0;
  for (const type of RECORD_TYPES) {
    for (const record of batch[type]) {
      (current[type] as unknown[]).push(record);
      if (++count === size) {
        yield current;
        current = emptyImportBatch();
        count = 0;
      }
    }
  }
  if (count) yield current;
}
