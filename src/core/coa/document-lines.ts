import type { PdfText } from './model.ts';

/** A cell with what the extractor needs to compare positions across lines. */
export interface PlacedCell {
  text: string;
  x: number;
  /** Right edge; estimated from the text length when the PDF gave no width. */
  end: number;
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

/** Every line of every page in reading order, each cell with a right edge. */
export function placeLines(text: PdfText): PlacedLine[][] {
  return text.pages.map((page, p) =>
    page.lines.map((line, i) => ({
      page: p,
      index: i,
      y: line.y,
      cells: line.cells.map((c) => ({
        text: c.text,
        x: c.x,
        end: c.x + (c.width > 0 ? c.width : c.text.length * GUESSED_CHAR_WIDTH),
      })),
    })),
  );
}

/** Horizontal overlap of two cells in points (0 when they do not overlap). */
export function overlap(a: PlacedCell, b: PlacedCell): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.x, b.x));
}
