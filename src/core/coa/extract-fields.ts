import { cleanCompound } from './compound-name.ts';
import { findStatedDate, parseStatedDate } from './dates.ts';
import { overlap, type PlacedCell, type PlacedLine, placeLines } from './document-lines.ts';
import { type LabelField, type LabelMatch, matchLabel, splitAtLabels } from './labels.ts';
import { looksLikeOrganisation, readLetterhead } from './letterhead.ts';
import { EMPTY_FIELDS, type ExtractedFields, type PdfText, type StatedDate } from './model.ts';
import { readResultsTables, type TableRow } from './results-table.ts';
import {
  isSpecification,
  type Percent,
  readBatch,
  readIdentity,
  readKey,
  readLabelClaim,
  readMethod,
  readName,
  readPercent,
  readQuantity,
  readUrl,
} from './values.ts';

/**
 * Reads what a CoA states from its positioned text. Values are found four ways, in every page:
 *   - in the same cell after the label (`Lot No.: ABC-123`; several pairs in one cell split);
 *   - in the next cell on the line (two-column sheets; table rows without a header, where the
 *     result is the last value of its kind on the line, after the specification);
 *   - under the label (a row of labels above a row of values, matched by horizontal overlap);
 *   - in the result column of a results table (`Test | Method | Specification | Result`).
 * A value is taken whole where it stands, and a cell read as a value (right of its label or under
 * it) is never read as a label itself, whatever word it starts with: `Lot No.:` then `LOT 5673`
 * is the batch `LOT 5673`, and `Client:` then `Purity 100% Labs` states no purity.
 * When a field is stated more than once the preferred label wins (a test date over a report date
 * over a received date), then the first in reading order. Pure: no I/O, a few milliseconds.
 */
export function extractFields(text: PdfText): ExtractedFields {
  const pages = placeLines(text);
  const found = new Found();
  let order = 0;

  for (const lines of pages) {
    const tables = readResultsTables(lines);
    for (const row of tables.rows) readTableRow(row, found, order++);
    const taken = new Set<PlacedCell>();
    for (let li = 0; li < lines.length; li++) {
      const line = lines[li];
      if (!line || tables.headers.has(line) || tables.rowLines.has(line)) continue;
      readLine(line, lines[li + 1], { found, taken, nextOrder: () => order++ });
    }
    readSentences(lines, found, order++);
  }
  // The letterhead alone does not make a CoA: a document with no stated field reads as empty.
  if (!found.has('lab') && !found.empty()) {
    const head = readLetterhead(pages);
    if (head) found.offer('lab', head.name, head.tier, 0);
  }
  return found.fields();
}

type Key = Exclude<keyof ExtractedFields, 'purityText'>;
type Values = {
  [K in Key]: K extends 'purity' ? Percent : K extends 'testDate' ? StatedDate : string;
};

/** The best value seen for each field: lowest tier, then first in reading order. */
class Found {
  private readonly best = new Map<Key, { value: unknown; tier: number; order: number }>();

  offer<K extends Key>(key: K, value: Values[K] | null, tier: number, order: number): boolean {
    if (value === null) return false;
    const had = this.best.get(key);
    if (!had || tier < had.tier || (tier === had.tier && order < had.order)) {
      this.best.set(key, { value, tier, order });
    }
    return true;
  }

  has(key: Key): boolean {
    return this.best.has(key);
  }

  empty(): boolean {
    return this.best.size === 0;
  }

  private get<K extends Key>(key: K): Values[K] | null {
    return (this.best.get(key)?.value as Values[K] | undefined) ?? null;
  }

  fields(): ExtractedFields {
    if (this.best.size === 0) return { ...EMPTY_FIELDS };
    const purity = this.get('purity');
    return {
      lab: this.get('lab'),
      batch: this.get('batch'),
      compound: this.get('compound'),
      testDate: this.get('testDate'),
      method: this.get('method'),
      purity: purity?.value ?? null,
      purityText: purity?.text ?? null,
      quantity: this.get('quantity'),
      labelClaim: this.get('labelClaim'),
      identity: this.get('identity'),
      client: this.get('client'),
      verificationKey: this.get('verificationKey'),
      verificationUrl: this.get('verificationUrl'),
    };
  }
}

// Fields whose value is free text: only read after a separator or from a cell of its own, so
// prose that starts with the label word (`Client samples are kept…`) is not a value.
const FREE_TEXT: ReadonlySet<LabelField> = new Set(['lab', 'compound', 'client']);
// Fields whose result follows the specification on a table-like line: the last match wins.
const LAST_ON_LINE: ReadonlySet<LabelField> = new Set(['purity', 'identity', 'quantity']);

interface Reading {
  label: LabelMatch;
  /** True when the value text is a cell or segment of its own, not prose after the label. */
  own: boolean;
}

/**
 * Offers the value `text` holds for the label's field. Answers whether it held one.
 * `own` is true when the text is a whole cell or follows a separator.
 */
function offerValue(found: Found, r: Reading, text: string, order: number): boolean {
  const { label, own } = r;
  const { field, tier } = label.spec;
  if (!own && FREE_TEXT.has(field)) return false;
  const whole = !own;
  switch (field) {
    case 'lab': {
      const name = readName(text);
      if (!name || (tier > 0 && !looksLikeOrganisation(name))) return false;
      return found.offer('lab', name, tier, order);
    }
    case 'batch':
      return found.offer('batch', readBatch(text, whole), 0, order);
    case 'compound': {
      const name = readName(text);
      if (!name || parseStatedDate(name) || readPercent(name)) return false;
      return found.offer('compound', cleanCompound(name), 0, order);
    }
    case 'testDate':
      return found.offer('testDate', whole ? parseStatedDate(text) : findStatedDate(text), tier, order);
    case 'method':
      return found.offer('method', readMethod(text, whole), 1, order);
    case 'purity': {
      const bare = /%/.test(label.label) || /%/.test(label.qualifier ?? '');
      const ok = found.offer('purity', readPercent(text, bare), 0, order);
      if (ok) offerMethodOfPurity(found, label, order);
      return ok;
    }
    case 'quantity': {
      const q = readQuantity(text);
      if (!q) return false;
      if (q.labelClaim) found.offer('labelClaim', q.labelClaim, 1, order);
      return found.offer('quantity', q.quantity, 0, order);
    }
    case 'labelClaim':
      return found.offer('labelClaim', isSpecification(text) ? null : readLabelClaim(text), 0, order);
    case 'identity':
      return found.offer('identity', readIdentity(text), 0, order);
    case 'client':
      return found.offer('client', readName(text), 0, order);
    case 'verificationKey':
      // A bare `Key:` heads a legend as often as a code (`Key: ND = not detected, LOQ 0.1%`):
      // only a one-word code is read after it.
      return found.offer('verificationKey', readKey(text, whole || /^key$/i.test(label.label)), 0, order);
    case 'verificationUrl':
      return found.offer('verificationUrl', readUrl(text), 0, order);
    case 'ignore':
      return false;
  }
}

/** `Purity (HPLC)`, `HPLC purity`, `Purity by LC-MS`: the label names the method. */
function offerMethodOfPurity(found: Found, label: LabelMatch, order: number): void {
  const method = readMethod(label.qualifier ?? '', true) ?? readMethod(label.label);
  found.offer('method', method, 2, order);
}

interface LineContext {
  found: Found;
  /**
   * Cells already read as the value of a label (to their left, or above them): they are values,
   * never labels, whatever word they start with (`Lot No.:` then `LOT 5673`).
   */
  taken: Set<PlacedCell>;
  nextOrder: () => number;
}

function readLine(line: PlacedLine, next: PlacedLine | undefined, ctx: LineContext): void {
  const { found, taken } = ctx;
  // Each cell's label, read once: the right-hand and below readings ask about neighbours. A cell
  // in value position is no label.
  const labels = line.cells.map((c) => (taken.has(c) ? null : matchLabel(c.text)));
  const isLabel = labels.map((m) => m !== null && (m.rest === '' || m.separated));
  const labelOnly = labels.map((m) => m !== null && m.rest === '' && m.spec.field !== 'ignore');
  // The cell right after `Label:` is its value, even a word that could be a label (`Sample:`
  // then `Assay`); a label ending in a colon is a label, wherever it is.
  const valueAfter = (label: LabelMatch | null | undefined, i: number): boolean =>
    label?.separated === true && label.rest === '' && labels[i]?.separated !== true;
  const labelRow = labelOnly.some(
    (only, i) => only && labelOnly[i + 1] === true && !valueAfter(labels[i], i + 1),
  );
  let below: { cells: PlacedCell[]; isLabel: boolean[] } | null = null;

  line.cells.forEach((cell, ci) => {
    if (taken.has(cell)) return;
    const segments = splitAtLabels(cell.text);
    segments.forEach((segment, si) => {
      const order = ctx.nextOrder();
      const label = segments.length === 1 ? labels[ci] : matchLabel(segment);
      if (!label || label.spec.field === 'ignore') return;
      if (label.rest !== '') {
        offerValue(found, { label, own: label.separated }, label.rest, order);
        return;
      }
      if (si !== segments.length - 1) return;
      if (!labelRow) {
        const right: PlacedCell[] = [];
        for (let k = ci + 1; k < line.cells.length; k++) {
          if (isLabel[k] && !(k === ci + 1 && valueAfter(label, k))) break;
          right.push(line.cells[k] as PlacedCell);
        }
        const read = readRight(found, label, right, order);
        // After `Label:` the cells up to the next label are values, read or not.
        if (read || label.separated) for (const c of right) taken.add(c);
        if (read) return;
        // A value to the right that is not this label's kind: this is not a label over a value.
        if (right.length > 0) return;
      }
      if (!next || line.y - next.y > MAX_BELOW) return;
      below ??= {
        cells: next.cells,
        isLabel: next.cells.map((c) => !taken.has(c) && isLabelCell(c.text)),
      };
      const at = cellBelow(cell, below.cells);
      const value = at >= 0 ? below.cells[at] : undefined;
      if (value && !below.isLabel[at] && offerValue(found, { label, own: true }, value.text, order))
        taken.add(value);
    });
  });
}

/** A label alone in its cell reads the value cells to its right (up to the next label). */
function readRight(found: Found, label: LabelMatch, values: readonly PlacedCell[], order: number): boolean {
  const field = label.spec.field;
  if (values.length === 0) return false;
  if (!LAST_ON_LINE.has(field)) {
    const first = values[0];
    return first !== undefined && offerValue(found, { label, own: true }, first.text, order);
  }
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (v && offerValue(found, { label, own: true }, v.text, order)) {
      if (field === 'purity') {
        const method = values.slice(0, i).find((c) => readMethod(c.text) !== null);
        if (method) found.offer('method', readMethod(method.text), 0, order);
      }
      return true;
    }
  }
  return false;
}

// Values under a label sit on the next line, within this distance (points).
const MAX_BELOW = 40;

/** The index of the cell in `cells` that overlaps `label` most horizontally, or -1. */
function cellBelow(label: PlacedCell, cells: readonly PlacedCell[]): number {
  let best = -1;
  let most = 0;
  cells.forEach((c, i) => {
    const o = overlap(label, c);
    if (o > most) {
      most = o;
      best = i;
    }
  });
  return best;
}

function isLabelCell(text: string): boolean {
  const m = matchLabel(text);
  return m !== null && (m.rest === '' || m.separated);
}

function readTableRow(row: TableRow, found: Found, order: number): void {
  const label = matchLabel(row.test);
  if (!label || row.result === null) return;
  const field = label.spec.field;
  if (field === 'purity') {
    const p = readPercent(row.result, row.resultInPercent || /%/.test(row.test));
    if (!found.offer('purity', p, 0, order)) return;
    const method = row.method !== null ? readMethod(row.method) : null;
    if (!found.offer('method', method, 0, order)) offerMethodOfPurity(found, label, order);
    return;
  }
  if (field === 'quantity' && row.spec !== null) {
    // `10 mg ± 10%` or `90–110% of 10 mg label claim`: the label claim, as the lab specifies it.
    const claim = /label|claim|nominal|declared|±|\+\/-/i.test(row.spec) ? readLabelClaim(row.spec) : null;
    found.offer('labelClaim', claim, 2, order);
  }
  offerValue(found, { label, own: true }, row.result, order);
}

// `verif\w{0,12}\b`, not `verif\w*`: an unbounded word followed by a lazy gap backtracks
// quadratically over a document of `verifverif…` runs (the hostile review measured 3 s a file).
const VERIFY_SENTENCE =
  /verif\w{0,12}\b[^.]{0,160}?((?:https?:\/\/|www\.)[^\s<>()"']+)(?:[^.]{0,80}?\b(?:code|key)\s*[:#]?\s*([a-z0-9][\w-]{3,99})(?![\w-]))?/i;
// A key in a sentence is one word; a longer word than a key may be is not cut to one.
const KEY_SENTENCE = /verif\w{0,12}\b[^.]{0,120}?\b(?:code|key)\s*[:#]?\s*([a-z0-9][\w-]{3,99})(?![\w-])/i;

/** `Verify this certificate at https://… with code ABC-123`, wrapped over lines or not. */
function readSentences(lines: readonly PlacedLine[], found: Found, order: number): void {
  const text = lines.map((l) => l.cells.map((c) => c.text).join('  ')).join(' ');
  const m = VERIFY_SENTENCE.exec(text);
  if (m) {
    found.offer('verificationUrl', readUrl(m[1] ?? ''), 1, order);
    if (m[2]) found.offer('verificationKey', readKey(m[2]), 1, order);
  }
  const k = KEY_SENTENCE.exec(text);
  if (k) found.offer('verificationKey', readKey(k[1] ?? ''), 1, order);
  for (const l of lines) {
    for (const c of l.cells) {
      const url = readUrl(c.text);
      if (url && /verif|validat|authentic/i.test(url)) found.offer('verificationUrl', url, 2, order);
    }
  }
}
