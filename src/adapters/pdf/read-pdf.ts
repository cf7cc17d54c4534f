import { fileURLToPath } from 'node:url';
import { getDocument, PDFDateString } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PdfMetadata, PdfReadResult, TextPage } from '../../core/coa/model.ts';
import { inflatedSizeWithin } from './inflate-guard.ts';
import { layoutPage, type PositionedRun } from './layout.ts';

export interface ReadLimits {
  /** Documents with more pages are refused before any page is read. */
  maxPages: number;
  /** Bytes all compressed streams may inflate to, together. */
  maxInflatedBytes: number;
}

// Font metrics for the standard 14 fonts: without them pdfjs guesses run widths, and the layout
// needs widths to tell a word gap from a column gap.
const standardFontDataUrl = fileURLToPath(
  new URL('standard_fonts/', import.meta.resolve('pdfjs-dist/package.json')),
);

/**
 * Reads the text layer of an untrusted PDF. Runs inside the extraction worker (pdf-pool.ts); the
 * wall-time and heap limits are the pool's, the page and inflation limits are checked here. Never
 * throws for a bad document: every failure is an `ok: false` reason.
 */
export async function readPdfText(bytes: Uint8Array, limits: ReadLimits): Promise<PdfReadResult> {
  if (!inflatedSizeWithin(bytes, limits.maxInflatedBytes)) return { ok: false, reason: 'inflate_limit' };
  const task = getDocument({
    data: bytes,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    standardFontDataUrl,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    if (doc.numPages > limits.maxPages) return { ok: false, reason: 'too_many_pages' };
    const pages: TextPage[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const runs = content.items.filter((i): i is PositionedRun & typeof i => 'str' in i);
      const laid = layoutPage(runs);
      for (const l of laid.lines) for (const c of l.cells) chars += c.text.length;
      pages.push(laid);
      page.cleanup();
    }
    if (chars === 0) return { ok: false, reason: 'no_text' };
    const { info } = await doc.getMetadata();
    return { ok: true, text: { pages, pageCount: doc.numPages, metadata: metadataOf(info) } };
  } catch (e) {
    const name = (e as { name?: unknown }).name;
    return { ok: false, reason: name === 'PasswordException' ? 'encrypted' : 'corrupt' };
  } finally {
    await task.destroy().catch(() => {});
  }
}

function metadataOf(info: unknown): PdfMetadata {
  const o = (typeof info === 'object' && info !== null ? info : {}) as Record<string, unknown>;
  const text = (k: string): string | null =>
    typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string).slice(0, 200) : null;
  const date = (k: string): string | null => {
    const raw = text(k);
    const d = raw === null ? null : PDFDateString.toDateObject(raw);
    return d && Number.isFinite(d.getTime()) ? d.toISOString() : null;
  };
  return {
    producer: text('Producer'),
    creator: text('Creator'),
    creationDate: date('CreationDate'),
    modDate: date('ModDate'),
  };
}
