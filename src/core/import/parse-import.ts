import type { TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { fitLimits, misplacedLimit, misplacedLimitMessage } from '../accounts/custom-limits.ts';
import '../validation/formats.ts';
import type { ExistingKeys } from '../ports.ts';
import type { ImportLine } from './json-lines.ts';
import {
  batchKey,
  emptyImportBatch,
  type ImportBatch,
  type ImportRecord,
  RECORD_SCHEMAS,
  RECORD_TYPES,
  type RecordType,
} from './records.ts';

export interface ImportLineError {
  /** 1-based line number in the file. */
  line: number;
  message: string;
}

const CHECKS = Object.fromEntries(
  Object.entries(RECORD_SCHEMAS).map(([type, schema]) => [type, TypeCompiler.Compile(schema as TSchema)]),
) as Record<RecordType, TypeCheck<TSchema>>;

/** How many errors an import keeps to report (the first, by line); the rest are counted. */
export const MAX_LISTED_ERRORS = 1000;

/** Clock skew tolerated by the "not in the future" checks (5 minutes, in ms). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Parses and validates JSON Lines one line at a time, so a long file streams. Shape errors are
 * found per line; references (a batch naming a vendor) are checked in finish(), against the
 * records of the file and what the store already holds.
 */
export class ImportParser {
  readonly batch: ImportBatch = emptyImportBatch();
  private readonly lineOf = new Map<ImportRecord, number>();
  private readonly seenKeys = new Map<string, number>();
  private listed: ImportLineError[] = [];
  /** Every error found, listed or not. */
  errorCount = 0;
  /** Lines with at least one error (a line can break several reference rules). */
  badLines = 0;
  lines = 0;
  private readonly maxListed: number;
  private finished = false;

  /**
   * `maxListed`: how many errors the parser keeps (the first ones, in line order). A file of
   * millions of bad lines must not cost an object per line: beyond the cap they are counted only.
   */
  constructor(
    private readonly nowMs: number,
    opts: { maxListed?: number } = {},
  ) {
    this.maxListed = opts.maxListed ?? MAX_LISTED_ERRORS;
  }

  /** The first `maxListed` errors in line order (all of them when there are no more). */
  get errors(): ImportLineError[] {
    this.trimListed();
    return this.listed;
  }

  /** One line of the file: its text, or the reason json-lines.ts could not read it. */
  addLine(text: ImportLine, line: number): void {
    this.lines = line;
    if (typeof text !== 'string') {
      if ('overlong' in text) {
        this.fail(line, `longer than ${text.limit} bytes; not read`);
        return;
      }
      const hex = text.value.toString(16).toUpperCase().padStart(2, '0');
      this.fail(line, `not valid UTF-8: byte 0x${hex} at byte ${text.byte} of the line`);
      return;
    }
    // Blank lines are free: a file of nothing but newlines must cost next to nothing per line.
    if (text.length === 0) return;
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const value = parseJsonLine(trimmed);
    if (value === NOT_JSON) {
      this.fail(line, 'not valid JSON');
      return;
    }
    this.addValue(value, line);
  }

  /** One record already parsed from JSON (or built by the operator API): the same checks as a line. */
  addValue(value: unknown, line: number): void {
    this.lines = Math.max(this.lines, line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail(line, 'a record must be a JSON object');
      return;
    }
    const type = (value as { type?: unknown }).type;
    if (typeof type !== 'string' || !(RECORD_TYPES as string[]).includes(type)) {
      this.fail(
        line,
        `unknown record type ${JSON.stringify(type)}; expected one of ${RECORD_TYPES.join(', ')}`,
      );
      return;
    }
    const check = CHECKS[type as RecordType];
    if (!check.Check(value)) {
      const first = check.Errors(value).First();
      const field = first?.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : '';
      this.fail(line, `${type}${field ? `.${field}` : ''}: ${first ? describe(first) : 'invalid record'}`);
      return;
    }
    const control = controlCharacterError(value as ImportRecord);
    if (control) {
      this.fail(line, `${type}.${control}`);
      return;
    }
    const given = normalizeTimestamps(value as ImportRecord);
    const semantic = this.semanticError(given);
    if (semantic) {
      this.fail(line, `${type}: ${semantic}`);
      return;
    }
    // An account that is not custom holds no limits: moving it off custom clears them.
    const record = given.type === 'account' ? fitLimits(given) : given;
    const key = naturalKey(record);
    const dup = this.seenKeys.get(key);
    if (dup !== undefined) {
      this.fail(line, `${type} ${key.slice(type.length + 1)} already appears on line ${dup}`);
      return;
    }
    this.seenKeys.set(key, line);
    this.lineOf.set(record, line);
    (this.batch[record.type] as ImportRecord[]).push(record);
  }

  /**
   * Reference checks; call once all lines are in. Returns the listed errors (also `errors`);
   * `errorCount` and `badLines` then count them all.
   */
  finish(existing: ExistingKeys): ImportLineError[] {
    this.finished = true;
    const b = this.batch;
    const has = (set: Set<string>, inFile: Iterable<string>) => {
      const all = new Set(inFile);
      return (k: string) => all.has(k) || set.has(k);
    };
    const vendor = has(
      existing.vendors,
      b.vendor.map((v) => v.slug),
    );
    const peptide = has(
      existing.peptides,
      b.peptide.map((p) => p.slug),
    );
    const lab = has(
      existing.labs,
      b.lab.map((l) => l.slug),
    );
    const account = has(
      existing.accounts,
      b.account.map((a) => a.name),
    );
    const review = has(
      existing.reviews,
      b.review.map((r) => r.id),
    );
    // Records only reach the batch without a line error, so a record failing here makes a line
    // bad that was not; it is counted once however many references it breaks.
    let lastBad: ImportRecord | null = null;
    const ref = (r: ImportRecord, ok: boolean, what: string) => {
      if (ok) return;
      this.record(
        this.lineOf.get(r) ?? 0,
        `${r.type}: ${what} does not exist (not in this file nor in the database)`,
      );
      this.errorCount++;
      if (lastBad !== r) this.badLines++;
      lastBad = r;
    };
    for (const r of b.claim) {
      ref(r, vendor(r.vendorSlug), `vendor '${r.vendorSlug}'`);
      if (r.account !== null) ref(r, account(r.account), `account '${r.account}'`);
    }
    for (const r of b.price) {
      ref(r, vendor(r.vendorSlug), `vendor '${r.vendorSlug}'`);
      ref(r, peptide(r.peptideSlug), `peptide '${r.peptideSlug}'`);
    }
    for (const r of b.batch) {
      ref(r, vendor(r.vendorSlug), `vendor '${r.vendorSlug}'`);
      ref(r, peptide(r.peptideSlug), `peptide '${r.peptideSlug}'`);
      if (r.lab) ref(r, lab(r.lab), `lab '${r.lab}'`);
    }
    for (const r of b.review) ref(r, vendor(r.vendorSlug), `vendor '${r.vendorSlug}'`);
    for (const r of b.reply) {
      ref(r, review(r.reviewId), `review '${r.reviewId}'`);
      if (r.account !== undefined) ref(r, account(r.account), `account '${r.account}'`);
    }
    for (const r of b.override) ref(r, vendor(r.vendorSlug), `vendor '${r.vendorSlug}'`);
    return this.errors;
  }

  private semanticError(r: ImportRecord): string | null {
    const future = (iso: string | null | undefined) =>
      iso != null && Date.parse(iso) > this.nowMs + FUTURE_TOLERANCE_MS;
    switch (r.type) {
      case 'batch': {
        if (batchKey(r.batchId) === '') return 'batchId is blank';
        if (r.status === 'approved') {
          const missing = (['purity', 'lab', 'testMethod', 'testedAt'] as const).filter((f) => r[f] == null);
          if (missing.length) return `an approved batch needs ${missing.join(', ')}`;
        }
        if (r.status === 'pending' && r.submittedAt == null) return 'a pending batch needs submittedAt';
        if (future(r.testedAt)) return 'testedAt is in the future';
        if (future(r.submittedAt)) return 'submittedAt is in the future';
        return null;
      }
      case 'account': {
        const misplaced = misplacedLimit(r.plan, r);
        return misplaced ? misplacedLimitMessage(misplaced, r.plan) : null;
      }
      case 'price':
        return future(r.updatedAt) ? 'updatedAt is in the future' : null;
      case 'review':
      case 'reply':
        return future(r.createdAt) ? 'createdAt is in the future' : null;
      case 'vendor':
        return future(r.verifiedAt) ? 'verifiedAt is in the future' : null;
      case 'override':
        return r.value !== null && !r.reason?.trim() ? 'an override needs a reason' : null;
      case 'peptide':
        return r.name.trim() === '' ? 'name is blank' : null;
      default:
        return null;
    }
  }

  /** A line's own error (its text or record): at most one per line, found in line order. */
  private fail(line: number, message: string): void {
    this.errorCount++;
    this.badLines++;
    this.record(line, message);
  }

  /**
   * Keeps an error if it can be among the first `maxListed` by line. Line errors come in line
   * order, so once the list is full a later one cannot; reference errors (finish) come in record
   * order, so they are gathered and the list cut back to the first ones whenever it doubles.
   */
  private record(line: number, message: string): void {
    if (!this.finished) {
      if (this.listed.length < this.maxListed) this.listed.push({ line, message });
      return;
    }
    this.listed.push({ line, message });
    if (this.listed.length >= 2 * this.maxListed) this.trimListed();
  }

  /** Sorts by line (stable: a line's errors keep their order) and keeps the first ones. */
  private trimListed(): void {
    this.listed.sort((x, y) => x.line - y.line);
    if (this.listed.length > this.maxListed) this.listed.length = this.maxListed;
  }
}

const NOT_JSON = Symbol('not JSON');

/**
 * JSON.parse, cheaper on the garbage a bad file is made of: a failed JSON.parse costs some
 * microseconds (it builds a SyntaxError), which over the 33 million lines a 64 MiB body can hold
 * is minutes. A text that cannot be JSON by its first or last character is refused without
 * parsing (an object must end with `}`), and the error a real parse throws skips its stack trace.
 */
function parseJsonLine(text: string): unknown {
  const first = text.charCodeAt(0);
  if (first === 0x7b ? text.charCodeAt(text.length - 1) !== 0x7d : !MAY_START_JSON[first]) return NOT_JSON;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** First characters of a JSON value other than an object: `[`, `"`, `-`, digits, true/false/null. */
const MAY_START_JSON: boolean[] = [];
for (const c of '["-0123456789tfn') MAY_START_JSON[c.charCodeAt(0)] = true;

function naturalKey(r: ImportRecord): string {
  switch (r.type) {
    case 'account':
      return `account ${r.name}`;
    case 'vendor':
    case 'peptide':
    case 'lab':
      return `${r.type} ${r.slug}`;
    case 'claim':
      return `claim ${r.vendorSlug}`;
    case 'price':
      return `price ${r.vendorSlug}/${r.peptideSlug}/${r.vialMg}mg/${r.source}`;
    case 'batch':
      return `batch ${r.vendorSlug}/${batchKey(r.batchId)}`;
    case 'review':
      return `review ${r.id}`;
    case 'reply':
      return `reply ${r.reviewId}`;
    case 'override':
      return `override ${r.vendorSlug}/${r.field}`;
  }
}

/**
 * Text fields that may hold several lines: in these, LF and TAB are allowed (as the JSON escapes
 * `\n` and `\t`). Everywhere else a text is one line.
 */
const MULTILINE_FIELDS: Partial<Record<RecordType, readonly string[]>> = {
  vendor: ['description'],
  review: ['body'],
  reply: ['body'],
};

/**
 * Control characters (C0, DEL, C1) and unpaired UTF-16 surrogates, which JSON escapes (`\u0007`,
 * `\ud800`) can smuggle past the UTF-8 check: no text field may hold them, except LF and TAB in
 * the fields above. A lone surrogate would be stored as U+FFFD, and a control character breaks
 * terminals, logs and the CSV or HTML a client builds from the API. With the `u` flag a paired
 * surrogate is one code point above U+FFFF, so only a lone one matches.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const ONE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u{d800}-\u{dfff}]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const MULTILINE_FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u{d800}-\u{dfff}]/u;

/** `field: reason` for the first text that holds a forbidden character, else null. */
function controlCharacterError(r: ImportRecord): string | null {
  const multiline = MULTILINE_FIELDS[r.type];
  for (const [field, value] of Object.entries(r)) {
    const lines = multiline?.includes(field) === true;
    if (typeof value === 'string') {
      const why = forbiddenCharacter(value, lines);
      if (why) return `${field}: ${why}`;
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        const why = typeof item === 'string' ? forbiddenCharacter(item, lines) : null;
        if (why) return `${field}.${i}: ${why}`;
      }
    }
  }
  return null;
}

function forbiddenCharacter(text: string, multiline: boolean): string | null {
  const m = (multiline ? MULTILINE_FORBIDDEN : ONE_LINE_FORBIDDEN).exec(text);
  if (!m) return null;
  const code = m[0].codePointAt(0)!;
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  // Position in characters (code points), 1-based, as an editor would count it.
  const position = [...text.slice(0, m.index)].length + 1;
  const what = code >= 0xd800 && code <= 0xdfff ? 'an unpaired surrogate' : 'a control character';
  let hint = '';
  if (multiline && code === 0x0d) hint = '; use \\n alone for a line break';
  else if (!multiline && (code === 0x0a || code === 0x09)) hint = '; this field is one line';
  return `contains ${what} (${name}) at character ${position}${hint}`;
}

/** Field names holding timestamps, per record type: stored as ISO 8601 UTC with milliseconds. */
const TIMESTAMP_FIELDS: Partial<Record<RecordType, string[]>> = {
  vendor: ['verifiedAt'],
  price: ['updatedAt'],
  batch: ['testedAt', 'submittedAt'],
  review: ['createdAt'],
  reply: ['createdAt'],
};

/** "2026-05-01T12:00:00+02:00" → "2026-05-01T10:00:00.000Z": one timestamp format everywhere. */
function normalizeTimestamps(r: ImportRecord): ImportRecord {
  const fields = TIMESTAMP_FIELDS[r.type];
  if (!fields) return r;
  const out = { ...r } as Record<string, unknown>;
  for (const f of fields) {
    const v = out[f];
    if (typeof v === 'string') out[f] = new Date(v).toISOString();
  }
  return out as unknown as ImportRecord;
}

/** A reason a person can act on, from TypeBox's first error. */
function describe(err: ValueError): string {
  if (err.type === ValueErrorType.ObjectRequiredProperty) return 'is required';
  if (err.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a known field';
  const s = err.schema as { format?: string; anyOf?: TSchema[] };
  if (err.type === ValueErrorType.Union && s.anyOf) {
    const consts = s.anyOf.map((x) => (x as { const?: unknown }).const);
    if (consts.every((c) => c !== undefined))
      return `expected one of ${consts.map((c) => JSON.stringify(c)).join(', ')}`;
    // A nullable field: explain what is wrong with the value against its non-null form.
    const nonNull = s.anyOf.filter((x) => (x as { type?: string }).type !== 'null');
    if (nonNull.length === 1) {
      const inner = Value.Errors(nonNull[0]!, err.value).First();
      if (inner) return `${describe(inner)} (or null)`;
    }
  }
  if (s.format === 'date-time') return 'expected an ISO 8601 timestamp';
  if (s.format === 'uri') return 'expected an http(s) URL';
  return err.message.replace(/^Expected/, 'expected');
}
