import type { PdfText } from './model.ts';

/** A cell with what the extractor needs to compare positions across lines. */
export interface PlacedCell {
  text: string;
  x: number;
  /** Right edge; estimated from the text length when the PDF gave no width. */
  end: number;
  /** Font size in points, 0 when unknown. */
  size: number;
}

export interface PlacedLine {
  page: number;
  /** Index of the line within its page (top to bottom). */
  index: number;
  y: number;
  cells: PlacedCell[];
}

// An average glyph is about half an em; 10 pt text is the common size on CoAs.
const GUESSED_CHAR_WIDTH = 5;

/**
 * Bounds on what the extractor reads, so its cost stays linear and small on hostile text (it runs
 * on the main thread). A real two-page CoA holds ~100 lines and ~6,000 characters; a full line of
 * 4 pt text is ~300 characters.
 */
export const READ_BOUNDS = {
  linesPerPage: 600,
  cellsPerLine: 40,
  charsPerCell: 300,
  charsPerDocument: 120_000,
} as const;

/** Every line of every page in reading order, each cell with a right edge, within READ_BOUNDS. */
export function placeLines(text: PdfText): PlacedLine[][] {
  let budget = READ_BOUNDS.charsPerDocument;
  const pages: PlacedLine[][] = [];
  for (const [p, page] of text.pages.entries()) {
    const lines: PlacedLine[] = [];
    for (const line of page.lines.slice(0, READ_BOUNDS.linesPerPage)) {
      if (budget <= 0) break;
      const cells: PlacedCell[] = [];
      for (const c of line.cells.slice(0, READ_BOUNDS.cellsPerLine)) {
        const t = c.text.slice(0, Math.min(READ_BOUNDS.charsPerCell, budget));
        budget -= t.length;
        const end = c.x + (c.width > 0 ? c.width : t.length * GUESSED_CHAR_WIDTH);
        if (t !== '') cells.push({ text: t, x: c.x, end, size: c.size ?? 0 });
      }
      lines.push({ page: p, index: lines.length, y: line.y, cells });
    }
    pages.push(lines);
  }
  return pages;
}

/** Horizontal overlap of two cells in points (0 when they do not overlap). */
export function overlap(a: PlacedCell, b: PlacedCell): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.x, b.x));
}
