import type { TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import '../validation/formats.ts';
import type { ExistingKeys } from '../ports.ts';
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

/** Accepts up to this many seconds of clock skew for "not in the future" checks. */
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

  addLine(text: string, line: number): void {
    this.lines = line;
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      this.fail(line, 'not valid JSON');
      return;
    }
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
      this.fail(line, `${type}${field ? `.${field}` : ''}: ${describe(first?.message, first?.schema)}`);
      return;
    }
    const record = value as ImportRecord;
    const semantic = this.semanticError(record);
    if (semantic) {
      this.fail(line, `${type}: ${semantic}`);
      return;
    }
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

  /** Every reference a record makes, for the store to say which already exist. */
  get batchForLookup(): ImportBatch {
    return this.batch;
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
    for (const r of b.reply) ref(r, review(r.reviewId), `review '${r.reviewId}'`);
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
      case 'price':
        return future(r.updatedAt) ? 'updatedAt is in the future' : null;
      case 'review':
        return future(r.createdAt) ? 'createdAt is in the future' : null;
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

function describe(message: string | undefined, schema: unknown): string {
  const s = schema as { format?: string; enum?: unknown; anyOf?: { const?: unknown }[] } | undefined;
  if (s?.format === 'date-time') return 'expected an ISO 8601 timestamp';
  if (s?.format === 'uri') return 'expected an http(s) URL';
  if (s?.anyOf?.every((x) => x.const !== undefined))
    return `expected one of ${s.anyOf.map((x) => JSON.stringify(x.const)).join(', ')}`;
  return (message ?? 'invalid value').replace(/^Expected/, 'expected');
}
