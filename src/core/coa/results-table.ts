import type { PlacedLine } from './document-lines.ts';

/**
 * Results tables: a header line (`Test | Method | Specification | Result`) and the rows under it.
 * Table rows are where the specification (`≥98.0%`) sits on the same line as the result
 * (`99.41%`), so the value is read from the column headed as the result, not from the first
 * percentage on the line.
 */

type ColumnKind = 'test' | 'method' | 'spec' | 'result' | 'other';

const HEADERS: readonly [ColumnKind, RegExp][] = [
  [
    'result',
    /^(?:results?|found|observed|measured(?: value)?|reported(?: value)?|value|outcome|findings?|actual)(?![a-z])/i,
  ],
  [
    'test',
    /^(?:tests?|parameters?|analys[ie]s|assays?|attributes?|characteristics?|determinations?|test items?|items?|properties|checks?|tests? performed)(?![a-z])/i,
  ],
  ['method', /^(?:methods?|techniques?|test methods?|procedure|sop|method ref(?:erence)?\.?)(?![a-z])/i],
  [
    'spec',
    /^(?:specifications?|spec\.?|limits?|acceptance(?: criteria)?|criteria|requirements?|target|expected)(?![a-z])/i,
  ],
];

interface Column {
  kind: ColumnKind;
  x: number;
}

export interface TableRow {
  line: PlacedLine;
  test: string;
  method: string | null;
  spec: string | null;
  result: string | null;
  /** The result column's header names `%`, so a bare number there is a percentage. */
  resultInPercent: boolean;
}

export interface ResultsTables {
  rows: TableRow[];
  /** Header lines, which hold column names and no values. */
  headers: Set<PlacedLine>;
  /** Lines read as table rows. */
  rowLines: Set<PlacedLine>;
}

// Rows further below the previous one than this (points) are past the end of the table.
const MAX_ROW_GAP = 48;
const MAX_ROWS = 60;
// Cells may start slightly left of their header (centred or right-aligned text).
const SLACK = 8;

/** The results tables of one page (lines top to bottom). */
export function readResultsTables(lines: readonly PlacedLine[]): ResultsTables {
  const out: ResultsTables = { rows: [], headers: new Set(), rowLines: new Set() };
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i];
    const columns = header ? headerColumns(header) : null;
    if (!header || !columns) continue;
    out.headers.add(header);
    const resultHeader = header.cells.find((c) => kindOf(c.text) === 'result');
    const resultInPercent = resultHeader !== undefined && /%/.test(resultHeader.text);
    let prevY = header.y;
    let j = i + 1;
    for (; j < lines.length && j <= i + MAX_ROWS; j++) {
      const line = lines[j];
      if (!line || prevY - line.y > MAX_ROW_GAP || headerColumns(line)) break;
      const only = line.cells.length === 1 ? line.cells[0] : undefined;
      // A paragraph under the table (a note, the method description) ends it.
      if (only && only.text.length > 60) break;
      prevY = line.y;
      const row = rowOf(line, columns, resultInPercent);
      if (row) {
        out.rows.push(row);
        out.rowLines.add(line);
      }
    }
    i = j - 1;
  }
  return out;
}

function kindOf(text: string): ColumnKind {
  const t = text.trim();
  for (const [kind, re] of HEADERS) if (re.test(t)) return kind;
  return 'other';
}

function headerColumns(line: PlacedLine): Column[] | null {
  if (line.cells.length < 2 || line.cells.some((c) => c.text.length > 40)) return null;
  const columns = line.cells.map((c) => ({ kind: kindOf(c.text), x: c.x }));
  const kinds = new Set(columns.map((c) => c.kind));
  if (!kinds.has('result')) return null;
  if (!kinds.has('test') && !kinds.has('spec') && !kinds.has('method')) return null;
  return columns;
}

function rowOf(line: PlacedLine, columns: readonly Column[], resultInPercent: boolean): TableRow | null {
  const byKind = new Map<ColumnKind, string>();
  let first: string | null = null;
  for (const cell of line.cells) {
    let at = 0;
    for (let k = 0; k < columns.length; k++) if ((columns[k]?.x ?? 0) - SLACK <= cell.x) at = k;
    const kind = columns[at]?.kind ?? 'other';
    byKind.set(kind, byKind.has(kind) ? `${byKind.get(kind)} ${cell.text}` : cell.text);
    first ??= cell.text;
  }
  const test = byKind.get('test') ?? first;
  if (test === null) return null;
  return {
    line,
    test,
    method: byKind.get('method') ?? null,
    spec: byKind.get('spec') ?? null,
    result: byKind.get('result') ?? null,
    resultInPercent,
  };
}
