import type { DocumentFailure, Note, NoteCode } from './verification.ts';

/** Notes are data: a code clients can switch on, and a sentence for people. */
export const note = (code: NoteCode, message: string): Note => ({ code, message });

const UNREADABLE: Record<DocumentFailure, [NoteCode, string]> = {
  encrypted: ['unreadable_encrypted', 'The PDF is encrypted and needs a password.'],
  corrupt: ['unreadable_corrupt', 'The PDF is damaged or not a valid PDF.'],
  no_text: [
    'unreadable_no_text',
    'The PDF has no text layer (a scan or an image): nothing can be read from it.',
  ],
  too_many_pages: [
    'unreadable_too_many_pages',
    'The PDF has more pages than a certificate of analysis can have.',
  ],
  time_limit: ['unreadable_time_limit', 'Reading the PDF took longer than the time limit.'],
  memory_limit: ['unreadable_memory_limit', 'Reading the PDF needed more memory than the limit.'],
  inflate_limit: ['unreadable_inflate_limit', "The PDF's compressed content expands beyond the size limit."],
};

export function unreadableNote(reason: DocumentFailure): Note {
  const [code, message] = UNREADABLE[reason];
  return note(code, message);
}
