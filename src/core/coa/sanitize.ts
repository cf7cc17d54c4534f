import type { ExtractedFields, PdfMetadata } from './model.ts';

/**
 * Control characters (C0, DEL, C1) and the Unicode bidirectional controls, which a document can
 * carry in its text layer and which would reach an operator's terminal (`purerank batches
 * pending`), a reviewer's browser or a log: clear screen, retitle a window, or make `Acme` read as
 * something else. They are never part of a lab, batch or compound name.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we remove
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The longest text a field keeps: every real value is far shorter. */
const MAX_FIELD = 200;

const clean = (s: string | null): string | null => {
  if (s === null) return null;
  const t = s.replace(UNSAFE, '').replace(/\s+/g, ' ').trim().slice(0, MAX_FIELD);
  return t === '' ? null : t;
};

/** The fields with every text made safe to show anywhere. */
export function sanitizeFields(f: ExtractedFields): ExtractedFields {
  return {
    lab: clean(f.lab),
    batch: clean(f.batch),
    compound: clean(f.compound),
    testDate: f.testDate ? { ...f.testDate, text: clean(f.testDate.text) ?? f.testDate.iso } : null,
    method: clean(f.method),
    purity: f.purity,
    purityText: clean(f.purityText),
    quantity: clean(f.quantity),
    labelClaim: clean(f.labelClaim),
    identity: clean(f.identity),
    client: clean(f.client),
    verificationKey: clean(f.verificationKey),
    verificationUrl: clean(f.verificationUrl),
  };
}

/** The document information dictionary, its texts made safe the same way (they reach notes). */
export function sanitizeMetadata(m: PdfMetadata): PdfMetadata {
  return { ...m, producer: clean(m.producer), creator: clean(m.creator) };
}
