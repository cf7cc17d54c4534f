import { type PDFDocument, type PDFFont, type PDFPage, type RGB, rgb, StandardFonts } from 'pdf-lib';

/** The three faces a template writes with, plus Symbol for `≥`/`≤` (not in WinAnsi). */
export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  symbol: PDFFont;
}

export type Family = 'helvetica' | 'times' | 'courier';

const FACES: Record<Family, [StandardFonts, StandardFonts, StandardFonts]> = {
  helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique],
  times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold, StandardFonts.TimesRomanItalic],
  courier: [StandardFonts.Courier, StandardFonts.CourierBold, StandardFonts.CourierOblique],
};

export async function embedFonts(doc: PDFDocument, family: Family): Promise<Fonts> {
  const [r, b, i] = FACES[family];
  const [regular, bold, italic, symbol] = await Promise.all([
    doc.embedFont(r),
    doc.embedFont(b),
    doc.embedFont(i),
    doc.embedFont(StandardFonts.Symbol),
  ]);
  return { regular, bold, italic, symbol };
}

export interface TextStyle {
  face?: 'regular' | 'bold' | 'italic';
  size?: number;
  color?: RGB;
  align?: 'left' | 'right' | 'center';
}

export const GREY = rgb(0.35, 0.35, 0.38);
export const LIGHT = rgb(0.85, 0.87, 0.9);
export const INK = rgb(0.08, 0.09, 0.12);

// Characters the standard fonts' WinAnsi encoding lacks, drawn with the Symbol font instead.
const SYMBOL_ONLY = /[≥≤]/;

/** A page and the fonts to write on it, with the few drawing operations the templates use. */
export class Sheet {
  constructor(
    readonly page: PDFPage,
    readonly fonts: Fonts,
  ) {}

  get width(): number {
    return this.page.getWidth();
  }

  /** Width of `s` in points in the given style. */
  measure(s: string, style: TextStyle = {}): number {
    const size = style.size ?? 9;
    const font = this.fonts[style.face ?? 'regular'];
    let w = 0;
    for (const part of splitSymbols(s)) {
      w += (SYMBOL_ONLY.test(part) ? this.fonts.symbol : font).widthOfTextAtSize(part, size);
    }
    return w;
  }

  /** Draws `s` with its baseline at y; answers the width drawn. */
  text(s: string, x: number, y: number, style: TextStyle = {}): number {
    const size = style.size ?? 9;
    const font = this.fonts[style.face ?? 'regular'];
    const width = this.measure(s, style);
    let at = style.align === 'right' ? x - width : style.align === 'center' ? x - width / 2 : x;
    for (const part of splitSymbols(s)) {
      const f = SYMBOL_ONLY.test(part) ? this.fonts.symbol : font;
      this.page.drawText(part, { x: at, y, size, font: f, color: style.color ?? INK });
      at += f.widthOfTextAtSize(part, size);
    }
    return width;
  }

  /** Wraps `s` to `width` points from (x, y) down; answers the baseline below the last line. */
  paragraph(s: string, x: number, y: number, width: number, style: TextStyle = {}): number {
    const size = style.size ?? 8;
    const leading = size * 1.3;
    let line = '';
    let at = y;
    for (const word of s.split(/\s+/)) {
      const next = line === '' ? word : `${line} ${word}`;
      if (line !== '' && this.measure(next, { ...style, size }) > width) {
        this.text(line, x, at, { ...style, size });
        at -= leading;
        line = word;
      } else {
        line = next;
      }
    }
    if (line !== '') this.text(line, x, at, { ...style, size });
    return at - leading;
  }

  rule(x1: number, y: number, x2: number, thickness = 0.6, color: RGB = GREY): void {
    this.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color });
  }

  box(x: number, y: number, w: number, h: number, fill?: RGB, border?: RGB): void {
    this.page.drawRectangle({
      x,
      y,
      width: w,
      height: h,
      ...(fill ? { color: fill } : {}),
      ...(border ? { borderColor: border, borderWidth: 0.7 } : {}),
    });
  }
}

function splitSymbols(s: string): string[] {
  return s.split(/([≥≤]+)/).filter((p) => p !== '');
}
