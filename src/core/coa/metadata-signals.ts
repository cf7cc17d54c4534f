import type { ExtractedFields, PdfMetadata } from './model.ts';
import { note } from './notes.ts';
import type { Note } from './verification.ts';

/**
 * Software that edits PDFs or images rather than producing reports from a lab system. A lab's
 * report generator writes its own producer; one of these in Producer or Creator says a person
 * touched the file afterwards. A note, not a verdict: a lab may export through one of them.
 */
const EDITORS =
  /photoshop|gimp|illustrator|inkscape|canva|ilovepdf|smallpdf|sejda|pdfescape|pdf-xchange|foxit phantom|nitro|pdfelement|wondershare|acrobat pro|pdf candy|pdfsam|libreoffice draw|affinity/i;

/** Creation and modification within this long of each other are one save, not an edit. */
const SAME_SAVE_MS = 5 * 60_000;

export function metadataNotes(meta: PdfMetadata, f: ExtractedFields): Note[] {
  const out: Note[] = [];
  const editor = [meta.producer, meta.creator].find((s) => s !== null && EDITORS.test(s));
  if (editor)
    out.push(note('pdf_editing_software', `The PDF was last written by editing software (${editor}).`));
  if (meta.modDate && f.testDate) {
    const mod = Date.parse(meta.modDate);
    const created = meta.creationDate ? Date.parse(meta.creationDate) : Number.NaN;
    const testDay = Date.parse(`${f.testDate.iso}T00:00:00Z`);
    // Reports are written after the test, so a late modification alone is normal; one that is
    // also a later edit of the file (not its first save) is the signal.
    const edited = !Number.isFinite(created) || mod - created > SAME_SAVE_MS;
    if (mod > testDay + 86_400_000 && edited) {
      out.push(
        note(
          'pdf_modified_after_test',
          `The PDF was modified on ${meta.modDate.slice(0, 10)}, after it was created and after the test date ${f.testDate.iso}.`,
        ),
      );
    }
  }
  return out;
}
