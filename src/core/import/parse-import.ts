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

/** Clock skew tolerated by the "not in the future" checks (5 minutes, in ms). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Parses and validates JSON Lines one line at a time, so a long file streams. Shape errors are
 * found per line; references (a batch naming a vendor) are checked in finish(), against the
 * records of the file and what the store already holds.
 */
export class ImportParser {
  readonly batch: ImportBatch = emptyImportBatch();
  readonly errors: ImportLineError[] = [];
  private readonly lineOf = new Map<ImportRecord, number>();
  private readonly seenKeys = new Map<string, number>();
  lines = 0;

  constructor(private readonly nowMs: number) {}

  /** One line of the file: its text, or the bytes json-lines.ts could not decode as UTF-8. */
  addLine(text: ImportLine, line: number): void {
    this.lines = line;
    if (typeof text !== 'string') {
      const hex = text.value.toString(16).toUpperCase().padStart(2, '0');
      this.fail(line, `not valid UTF-8: byte 0x${hex} at byte ${text.byte} of the line`);
      return;
    }
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
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

  /** Reference checks; call once all lines are in. Returns the errors (also kept in `errors`). */
  finish(existing: ExistingKeys): ImportLineError[] {
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
    const ref = (r: ImportRecord, ok: boolean, what: string) => {
      if (!ok)
        this.fail(
          this.lineOf.get(r) ?? 0,
          `${r.type}: ${what} does not exist (not in this file nor in the database)`,
        );
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
    this.errors.sort((x, y) => x.line - y.line);
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

  private fail(line: number, message: string): void {
    this.errors.push({ line, message });
  }
}

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
