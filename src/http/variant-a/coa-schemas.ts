import { Type as T } from '@sinclair/typebox';
import { MAX_BATCH_ID_LENGTH } from '../../core/batches/model.ts';

const Nullable = <S extends ReturnType<typeof T.String>>(s: S) => T.Union([s, T.Null()]);

const NOTE_DOC =
  'A finding: `code` is stable (switch on it), `message` is for people. docs/methodology.md lists every code.';

/** What the document states (null: not stated). Our extension of the spec's result. */
export const ExtractedA = T.Object(
  {
    lab: Nullable(T.String()),
    batch: Nullable(T.String()),
    compound: Nullable(T.String()),
    test_date: Nullable(T.String({ description: 'YYYY-MM-DD, as read (see test_date_text).' })),
    test_date_text: Nullable(T.String({ description: 'The date as printed.' })),
    method: Nullable(T.String()),
    purity: T.Union([T.Number(), T.Null()]),
    quantity: Nullable(T.String({ description: 'Measured content, e.g. `10.13 mg`.' })),
    label_claim: Nullable(T.String({ description: 'Content on the label, e.g. `10 mg`.' })),
    identity: Nullable(T.String({ description: 'Identity test result as printed, e.g. `Conforms`.' })),
    client: Nullable(T.String({ description: 'The client (ordering vendor) the document names.' })),
    verification_key: Nullable(T.String()),
    verification_url: Nullable(T.String()),
  },
  {
    description: 'What the document states; every key is present, null when the document does not state it.',
  },
);

export const CoaVerificationA = T.Object(
  {
    verification_id: T.String({ description: 'Identifier of the verification (`ver_` + 32 hex).' }),
    status: T.Union(
      ['verified', 'pending_review', 'mismatch', 'rejected', 'unreadable'].map((s) => T.Literal(s)),
      { description: 'The decision table is in docs/methodology.md.' },
    ),
    confidence: T.Number({
      minimum: 0,
      maximum: 1,
      description: 'How strongly the evidence supports `status`.',
    }),
    peptide_match: T.Boolean({ description: 'The document is for the requested peptide.' }),
    purity_claim: T.Optional(
      T.String({
        description: 'Purity as the document prints it, e.g. `99.2%`; absent when it prints none.',
      }),
    ),
    purity_verified: T.Boolean({
      description: 'An approved record on file states the same purity (within 0.1 points).',
    }),
    notes: T.Array(T.Object({ code: T.String(), message: T.String() }, { description: NOTE_DOC })),
    extracted: ExtractedA,
    lab_verification_url: T.Optional(
      T.String({ description: "The lab's own verification page, when the registry has one." }),
    ),
    peptide: T.String({ description: 'The requested peptide (slug).' }),
    vendor: T.Optional(T.String({ description: 'The vendor the verification concerns (slug), when known.' })),
    review: T.Optional(
      T.Object(
        {
          state: T.Union([T.Literal('pending'), T.Literal('approved'), T.Literal('rejected')]),
          vendor: T.String(),
          batch_id: T.String(),
        },
        { description: 'The submission this upload is queued in, and its review state now.' },
      ),
    ),
    created_at: T.String({ description: 'ISO 8601.' }),
  },
  { $id: 'CoaVerificationA', title: 'CoaVerificationA' },
);

/** The multipart form, for the OpenAPI document (the route reads the parts itself). */
export const CoaUploadFormA = T.Object(
  {
    file: T.String({
      format: 'binary',
      contentMediaType: 'application/pdf',
      description:
        'The certificate of analysis, a PDF (checked by its magic bytes), at most COA_MAX_BYTES (10 MB).',
    }),
    peptide: T.String({ minLength: 1, maxLength: 100, description: 'The peptide: slug, name or alias.' }),
    batch_id: T.Optional(
      T.String({
        minLength: 1,
        maxLength: MAX_BATCH_ID_LENGTH,
        description: 'The batch the document should be for.',
      }),
    ),
    vendor: T.Optional(T.String({ minLength: 1, maxLength: 100, description: 'The vendor (slug).' })),
  },
  { additionalProperties: false },
);
