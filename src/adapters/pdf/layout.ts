import type { TextCell, TextLine, TextPage } from '../../core/coa/model.ts';

/** A positioned text run as pdfjs reports it (the subset the layout needs). */
export interface PositionedRun {
  str: string;
  /** [a, b, c, d, e, f]: e and f place the run; the vertical scale gives the font size. */
  transform: number[];
  width: number;
  height: number;
  /** The font pdfjs loaded for the run; runs in one font that touch come merged already. */
  fontName?: string;
}

/**
 * Rebuilds lines and columns from positioned runs. pdfjs reports runs in content-stream order,
 * which for table layouts is not reading order, so runs are grouped by baseline (within 40 % of
 * the font size) and sorted left to right. Runs closer than 0.75 em join one cell (word spacing is
 * ~0.25 em in proportional fonts and exactly 0.6 em in Courier, whose LIMS printouts pdfjs reports
 * word by word; table columns are further apart), so a label and its value in the next column stay
 * separate cells and the extractor can read tables by column.
 *
 * Runs that touch (no gap) join too, except where the font changes between a letter or digit and
 * another: that is two table cells drawn edge to edge (`5 mg` then `TB5-TBL-9`, `Purity` then
 * `99.41%`), not one word, while `Purity (` + italic `HPLC` + `)` or `≥` in Symbol + `98.0%` stay
 * one cell. Cells in one font that touch cannot be told apart here: pdfjs merges them into one run.
 */
export function layoutPage(runs: readonly PositionedRun[]): TextPage {
  const placed = runs
    .filter((r) => r.str.trim() !== '')
    .map((r) => ({
      text: r.str,
      x: r.transform[4] ?? 0,
      y: r.transform[5] ?? 0,
      width: Number.isFinite(r.width) ? Math.max(0, r.width) : 0,
      size: fontSize(r),
      font: r.fontName ?? '',
    }))
    .filter((r) => Number.isFinite(r.x) && Number.isFinite(r.y));
  placed.sort((a, b) => b.y - a.y || a.x - b.x);

  const lines: { y: number; size: number; runs: typeof placed }[] = [];
  for (const r of placed) {
    const line = lines.find((l) => Math.abs(l.y - r.y) <= 0.4 * Math.max(l.size, r.size));
    if (line) line.runs.push(r);
    else lines.push({ y: r.y, size: r.size, runs: [r] });
  }
  lines.sort((a, b) => b.y - a.y);

  return {
    lines: lines.map((l): TextLine => {
      l.runs.sort((a, b) => a.x - b.x);
      const cells: TextCell[] = [];
      let end = Number.NEGATIVE_INFINITY;
      let lastRun: (typeof l.runs)[number] | undefined;
      for (const r of l.runs) {
        const last = cells.at(-1);
        const gap = r.x - end;
        if (last && gap <= 0.75 * r.size && !(lastRun && newCellInNewFont(lastRun, r, gap))) {
          const space = gap > 0.1 * r.size && !/\s$/.test(last.text) && !/^\s/.test(r.text);
          last.text += (space ? ' ' : '') + r.text;
          last.width = r.x + r.width - last.x;
          last.size = Math.max(last.size ?? 0, r.size);
        } else {
          cells.push({ text: r.text, x: r.x, width: r.width, size: r.size });
        }
        end = Math.max(end, r.x + r.width);
        lastRun = r;
      }
      for (const c of cells) c.text = c.text.replace(/\s+/g, ' ').trim();
      return { y: l.y, cells: cells.filter((c) => c.text !== '') };
    }),
  };
}

interface FontedRun {
  text: string;
  size: number;
  font: string;
}

/** A run touching the previous one (within 0.1 em either way) whose font differs at a word edge. */
function newCellInNewFont(prev: FontedRun, r: FontedRun, gap: number): boolean {
  if (prev.font === '' || r.font === '' || prev.font === r.font) return false;
  if (Math.abs(gap) > 0.1 * r.size || Math.abs(prev.size - r.size) > 0.1 * r.size) return false;
  return /[A-Za-z0-9]$/.test(prev.text) && /^[A-Za-z0-9]/.test(r.text);
}

function fontSize(r: PositionedRun): number {
  const [, , c = 0, d = 0] = r.transform;
  const s = Math.hypot(c, d) || r.height;
  return Number.isFinite(s) && s > 0 ? s : 10;
}
