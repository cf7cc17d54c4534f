/**
 * Certificate-of-analysis verification: the types shared by the PDF adapter (which turns bytes
 * into positioned text), the field extractor (text into fields), the decision table (fields and the
 * records on file into a status) and the presenters. No PDF or HTTP type appears here.
 */

/** One run of text on a line, at its horizontal position (PDF points from the page's left edge). */
export interface TextCell {
  text: string;
  x: number;
  /** Width in points, when the PDF gave one (0 otherwise). */
  width: number;
  /** Font size in points (the largest of the runs joined into the cell), when known. */
  size?: number;
}

/** Cells that share a baseline, left to right. Lines are top to bottom within a page. */
export interface TextLine {
  cells: TextCell[];
  /** Baseline height from the page's bottom edge (PDF points); larger is higher on the page. */
  y: number;
}

export interface TextPage {
  lines: TextLine[];
}

/** The document information dictionary, as far as it is present and well-formed. */
export interface PdfMetadata {
  producer: string | null;
  creator: string | null;
  /** ISO 8601 UTC, or null when absent or unparseable. */
  creationDate: string | null;
  modDate: string | null;
}

export interface PdfText {
  pages: TextPage[];
  pageCount: number;
  metadata: PdfMetadata;
}

/** Why a document could not be read; each maps to an `unreadable` note. */
export type UnreadableReason =
  | 'encrypted'
  | 'corrupt'
  | 'no_text'
  | 'too_many_pages'
  | 'time_limit'
  | 'memory_limit'
  | 'inflate_limit'
  | 'busy';

export type PdfReadResult = { ok: true; text: PdfText } | { ok: false; reason: UnreadableReason };

/** What reading a document yields: the fields it states (extract-fields.ts), or why not. */
export type DocumentReading =
  | { ok: true; fields: ExtractedFields; metadata: PdfMetadata; pageCount: number }
  | { ok: false; reason: UnreadableReason };

/**
 * The port the PDF adapter implements: parse untrusted bytes and extract their fields off the main
 * thread, under size, time, page and memory limits (the extractor is core code, but its input is
 * the attacker's, so it runs there too). It never throws for a bad document; it answers
 * `ok: false`. A `signal` that aborts before the document's turn drops it unread (its client left).
 */
export interface PdfReader {
  read(bytes: Uint8Array, signal?: AbortSignal): Promise<DocumentReading>;
  close(): Promise<void>;
}

/** A date as the document states it, with the ISO day it was read as. */
export interface StatedDate {
  /** YYYY-MM-DD. */
  iso: string;
  /** The text as printed, e.g. `03/12/2026`. */
  text: string;
  /** True when day and month could be swapped (both ≤ 12 and different) and the rule chose. */
  ambiguous: boolean;
}

/** What the document states. Every field is null when the document does not state it. */
export interface ExtractedFields {
  lab: string | null;
  batch: string | null;
  /** The compound as printed (matched to a peptide through names and aliases later). */
  compound: string | null;
  testDate: StatedDate | null;
  /** E.g. `HPLC`, `HPLC-UV`, `LC-MS`. */
  method: string | null;
  /** Percent as a number, e.g. 99.2 (may exceed 100: that is a forgery signal, kept as read). */
  purity: number | null;
  /** The purity as printed, e.g. `99.2%`. */
  purityText: string | null;
  /** Measured content, e.g. `10.13 mg`, and the label claim, e.g. `10 mg`. */
  quantity: string | null;
  labelClaim: string | null;
  /** Identity test result as printed, e.g. `Conforms`, `Pass`, `Does not conform`. */
  identity: string | null;
  /** The client (ordering vendor) the document names. */
  client: string | null;
  /** A verification code/key the lab prints, and a verification URL when printed. */
  verificationKey: string | null;
  verificationUrl: string | null;
}

export const EMPTY_FIELDS: ExtractedFields = {
  lab: null,
  batch: null,
  compound: null,
  testDate: null,
  method: null,
  purity: null,
  purityText: null,
  quantity: null,
  labelClaim: null,
  identity: null,
  client: null,
  verificationKey: null,
  verificationUrl: null,
};
