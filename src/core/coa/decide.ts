import { ageInDays } from '../batches/batch-state.ts';
import type { BatchRecord } from '../batches/model.ts';
import { CORROBORATION, confidenceOf } from './confidence.ts';
import type { Directory, LabEntry, PeptideEntry, VendorEntry } from './directory.ts';
import { sameBatch, sameLab } from './matching.ts';
import { metadataNotes } from './metadata-signals.ts';
import type { ExtractedFields, StatedDate } from './model.ts';
import { note, unreadableNote } from './notes.ts';
import type { Extraction, Note, NoteCode, VerificationOutcome } from './verification.ts';

/**
 * Purity on a document and on the record agree within this many percentage points: the record is
 * transcribed from the lab's report, so they differ only by rounding (99.24 against 99.2). Wider,
 * a forger who knows the record could print a round 100.0% over 99.6% and pass.
 */
export const PURITY_TOLERANCE = 0.1;

/** Whether two purities agree: compared in hundredths of a point, so 99.4 − 99.3 is 0.1, not 0.10000000000000853. */
const samePurity = (a: number, b: number): boolean =>
  Math.round(Math.abs(a - b) * 100) <= Math.round(PURITY_TOLERANCE * 100);

/** A test date up to this long after "now" is timezone slack, not the future. */
const FUTURE_SLACK_MS = 36 * 3600_000;

/** The request after the route's validation: its peptide and vendor resolved. */
export interface ResolvedRequest {
  peptide: PeptideEntry;
  batchId: string | null;
  vendor: VendorEntry | null;
}

export interface DecisionInput {
  request: ResolvedRequest;
  extraction: Extraction;
  directory: Directory;
  /** Every stored record of the document's batch number (any vendor, any status). */
  records: readonly BatchRecord[];
  nowMs: number;
  staleAfterDays: number;
}

/** The decision, and the submission to queue when the verdict is pending_review. */
export interface Decision {
  outcome: VerificationOutcome;
  /** A new pending submission to write (null: none, or the batch already has one). */
  queue: {
    vendorSlug: string;
    batchId: string;
    peptideSlug: string;
    purity: number | null;
    labSlug: string | null;
    testMethod: string | null;
    testedAt: string | null;
  } | null;
}

/**
 * The decision table (docs/methodology.md, decision 0019). First match wins:
 * 1. unreadable — the PDF could not be read, or lacks a compound, batch, purity or lab;
 * 2. rejected — any forgery signal (impossible purity, future test date, flagged or self-issued
 *    lab, the batch on file belongs to another vendor or peptide, or was rejected);
 * 3. mismatch — the document contradicts the request or the approved record on file;
 * 4. verified — an approved record of the vendor's batch corroborates every fact;
 * 5. pending_review — plausible and uncorroborated: queued for operator review.
 * Metadata signals (editing software, modified after the test) are notes that lower confidence.
 */
export function decide(input: DecisionInput): Decision {
  const { request, extraction, directory } = input;
  const base = {
    peptideSlug: request.peptide.slug,
    vendorSlug: request.vendor?.slug ?? null,
    submission: null,
    labVerificationUrl: null,
  };
  if (!extraction.ok) {
    return unreadable(base, null, [unreadableNote(extraction.reason)]);
  }
  const f = extraction.fields;
  const missing = (['compound', 'batch', 'purity', 'lab'] as const).filter((k) => f[k] === null);
  if (missing.length > 0) {
    const stated = f.compound ? directory.peptidePrinted(f.compound) : null;
    return unreadable(
      base,
      f,
      [note('fields_missing', `The document does not state its ${missing.join(', ')}.`)],
      stated?.slug === request.peptide.slug,
    );
  }
  // Narrowed by the check above.
  const printed = { compound: f.compound!, batch: f.batch!, purity: f.purity!, lab: f.lab! };

  const notes: Note[] = [];
  const add = (code: NoteCode, message: string) => notes.push(note(code, message));

  const compoundPeptide = directory.peptidePrinted(printed.compound);
  const peptideMatch = compoundPeptide?.slug === request.peptide.slug;
  const lab = directory.lab(printed.lab);
  const labUrl = lab ? verificationUrl(lab, f) : null;

  // The vendor: as requested, else the client the document names, else the one vendor on file.
  let vendor = request.vendor;
  const client = f.client ? directory.vendorPrinted(f.client) : null;
  if (vendor && client && client.slug !== vendor.slug) {
    add('client_other_vendor', `The document names ${client.name} as its client, not ${vendor.name}.`);
  }
  vendor ??= client;
  // Only approved records are evidence against a document: a pending submission is anyone's
  // unreviewed claim (another upload, perhaps made to squat the batch number).
  const live = input.records.filter((r) => r.status === 'approved');
  if (!vendor) {
    const owners = new Set(live.map((r) => r.vendorSlug));
    const only = owners.size === 1 ? directory.vendor([...owners][0]!) : null;
    if (only) {
      vendor = only;
      add('vendor_inferred', `The batch is on file for ${only.name} only.`);
    }
  }
  const ofVendor = vendor ? input.records.filter((r) => r.vendorSlug === vendor.slug) : [];
  const onFile = ofVendor[0] ?? null;

  // 2. Forgery signals.
  const hard: Note[] = [];
  const flag = (code: NoteCode, message: string) => hard.push(note(code, message));
  if (printed.purity > 100)
    flag('purity_impossible', `The document claims ${f.purityText ?? printed.purity} purity, above 100%.`);
  // An ambiguous date is in the future only when both of its readings are.
  if (
    f.testDate &&
    readings(f.testDate).every((d) => Date.parse(`${d}T00:00:00Z`) > input.nowMs + FUTURE_SLACK_MS)
  ) {
    flag('test_date_future', `The test date ${f.testDate.text} is in the future.`);
  }
  if (lab?.flagged) flag('lab_flagged', `${lab.name} is flagged in the lab registry.`);
  if (!lab && selfIssued(printed.lab, vendor, f.client)) {
    flag(
      'lab_self_issued',
      `The testing lab "${printed.lab}" is not in the registry and appears to be the vendor itself.`,
    );
  }
  if (vendor && live.length > 0 && !live.some((r) => r.vendorSlug === vendor.slug)) {
    const other = live[0]!;
    flag(
      'batch_other_vendor',
      `Batch ${other.batchId} is on file for ${other.vendorName}, not ${vendor.name}.`,
    );
  }
  const sameVendorLive = vendor ? live.filter((r) => r.vendorSlug === vendor.slug) : live;
  const docPeptideName = compoundPeptide?.name ?? request.peptide.name;
  if (sameVendorLive.length > 0 && !sameVendorLive.some((r) => r.peptideName === docPeptideName)) {
    const other = sameVendorLive[0]!;
    flag(
      'batch_other_peptide',
      `Batch ${other.batchId} is on file as ${other.peptideName}, not ${docPeptideName}.`,
    );
  }
  // The vendor's batch was rejected on review. The same document again is a forgery signal; one
  // stating other facts contradicts the record rather than proving anything (a squatter's junk
  // submission, once rejected, must not condemn the vendor's genuine report): a mismatch below.
  const rejectedOnFile = onFile?.status === 'rejected' ? onFile : null;
  if (
    rejectedOnFile &&
    submissionConflicts(rejectedOnFile, printed, f.testDate, docPeptideName).length === 0
  ) {
    flag(
      'batch_rejected_on_file',
      `Batch ${rejectedOnFile.batchId} of ${rejectedOnFile.vendorName} was rejected on review.`,
    );
  }
  const meta = metadataNotes(extraction.metadata, f);
  if (hard.length > 0) {
    return finish('rejected', [...hard, ...notes, ...meta]);
  }

  // 3. Contradictions.
  const contra: Note[] = [];
  const differs = (code: NoteCode, message: string) => contra.push(note(code, message));
  if (!compoundPeptide) {
    // Not a peptide we know, so not the one requested: queuing it as that peptide would let one
    // approval turn a document about something else into its record.
    differs(
      'compound_mismatch',
      `The document is for "${printed.compound}", which is not ${request.peptide.name} (nor any peptide in the library).`,
    );
    add('compound_unknown', `The compound "${printed.compound}" is not in the peptide library.`);
  } else if (!peptideMatch) {
    differs('compound_mismatch', `The document is for ${compoundPeptide.name}, not ${request.peptide.name}.`);
  }
  if (request.batchId !== null && !sameBatch(request.batchId, printed.batch)) {
    differs('batch_mismatch', `The document is for batch ${printed.batch}, not ${request.batchId}.`);
  }
  if (rejectedOnFile) {
    differs(
      'batch_rejected_on_file',
      `Batch ${rejectedOnFile.batchId} of ${rejectedOnFile.vendorName} was rejected on review, and its submission stated other facts; an operator can review it again.`,
    );
  }
  const approved = onFile?.status === 'approved' ? onFile : null;
  let purityVerified = false;
  const corroborated: number[] = [];
  if (approved) {
    if (approved.purity !== null) {
      if (samePurity(approved.purity, printed.purity)) {
        purityVerified = true;
        corroborated.push(CORROBORATION.purity);
      } else {
        differs(
          'purity_differs',
          `The document claims ${f.purityText}; the record on file says ${approved.purity}%.`,
        );
      }
    }
    if (approved.labName !== null) {
      if (sameLab(approved.labName, printed.lab)) corroborated.push(CORROBORATION.lab);
      else
        differs(
          'lab_differs',
          `The document names ${printed.lab}; the record on file names ${approved.labName}.`,
        );
    }
    if (approved.testedAt !== null && f.testDate) {
      if (sameDay(approved.testedAt, f.testDate)) corroborated.push(CORROBORATION.testDate);
      else {
        differs(
          'test_date_differs',
          `The document's test date ${f.testDate.text} differs from ${approved.testedAt.slice(0, 10)} on file${f.testDate.ambiguous ? ' (its day and month could be swapped)' : ''}.`,
        );
      }
    }
  }
  if (contra.length > 0) return finish('mismatch', [...contra, ...notes, ...meta], purityVerified);

  // Cautions that apply to a verified or pending verdict.
  if (lab && !lab.trusted) add('lab_untrusted', `${lab.name} is not a trusted lab in the registry.`);
  if (!lab) add('lab_unknown', `The lab "${printed.lab}" is not in the registry.`);
  if (!f.testDate) add('test_date_missing', 'The document does not state when it was tested.');
  else if (f.testDate.ambiguous) {
    add(
      'test_date_ambiguous',
      `The test date ${f.testDate.text} was read as ${f.testDate.iso}; its day and month could be swapped.`,
    );
  }
  if (lab?.trusted) corroborated.push(CORROBORATION.trustedLab);

  // 4. Corroborated by the approved record on file.
  if (approved && peptideMatch && purityVerified && approved.labName !== null) {
    corroborated.push(CORROBORATION.record, CORROBORATION.peptide);
    add(
      'record_corroborates',
      `An approved record of batch ${approved.batchId} for ${approved.vendorName} matches the document.`,
    );
    if (approved.testedAt && ageInDays(approved.testedAt, input.nowMs) > input.staleAfterDays) {
      add('record_stale', `The batch was tested more than ${input.staleAfterDays} days ago.`);
    }
    return finish('verified', [...notes, ...meta], true, corroborated);
  }

  // 5. Plausible, uncorroborated: to review.
  let queue: Decision['queue'] = null;
  let submission: VerificationOutcome['submission'] = null;
  if (approved) {
    // On file and approved, but the record lacks a fact to corroborate against (its lab).
    add(
      'no_record',
      `The record of batch ${approved.batchId} on file lacks the facts to corroborate this document.`,
    );
  } else if (!vendor) {
    add(
      'vendor_unknown',
      'No vendor is named (the vendor field, or a client the registry knows), so the document is not queued for review.',
    );
  } else if (onFile?.status === 'pending') {
    submission = { vendorSlug: vendor.slug, batchId: onFile.batchId };
    add('submission_exists', `Batch ${onFile.batchId} of ${vendor.name} is already awaiting review.`);
    const conflicts = submissionConflicts(onFile, printed, f.testDate, docPeptideName);
    if (conflicts.length > 0) {
      add('submission_differs', `The submission awaiting review states another ${conflicts.join(', ')}.`);
    }
  } else {
    submission = { vendorSlug: vendor.slug, batchId: printed.batch };
    queue = {
      vendorSlug: vendor.slug,
      batchId: printed.batch,
      peptideSlug: (compoundPeptide ?? request.peptide).slug,
      purity: printed.purity,
      labSlug: lab?.slug ?? null,
      testMethod: f.method,
      testedAt: f.testDate ? testedAtOf(f.testDate, input.nowMs) : null,
    };
    add(
      'submission_queued',
      `No approved record of batch ${printed.batch} is on file; it is queued for review as a submission of ${vendor.name}.`,
    );
  }
  const out = finish('pending_review', [...notes, ...meta], false, corroborated);
  return { outcome: { ...out.outcome, submission }, queue };

  function finish(
    status: VerificationOutcome['status'],
    all: Note[],
    purityOk = false,
    weights: number[] = [],
  ): Decision {
    return {
      outcome: {
        status,
        confidence: confidenceOf(
          status,
          all.map((n) => n.code),
          weights,
        ),
        peptideMatch,
        purityClaim: f.purityText,
        purityVerified: purityOk,
        notes: all,
        extracted: f,
        labVerificationUrl: labUrl,
        peptideSlug: request.peptide.slug,
        vendorSlug: vendor?.slug ?? null,
        submission: null,
      },
      queue: null,
    };
  }
}

function unreadable(
  base: Pick<VerificationOutcome, 'peptideSlug' | 'vendorSlug' | 'submission' | 'labVerificationUrl'>,
  fields: ExtractedFields | null,
  notes: Note[],
  peptideMatch = false,
): Decision {
  return {
    outcome: {
      ...base,
      status: 'unreadable',
      confidence: confidenceOf('unreadable', []),
      peptideMatch,
      purityClaim: fields?.purityText ?? null,
      purityVerified: false,
      notes,
      extracted: fields,
    },
    queue: null,
  };
}

/**
 * A printed date against a recorded test time. The record is a UTC instant, the document a day in
 * the lab's time zone, so the days may differ by one; more is another test. A date whose day and
 * month could be swapped (`03/12/2026`, dates.ts) matches with either reading.
 */
function sameDay(recorded: string, printed: StatedDate): boolean {
  const at = Date.parse(recorded);
  return readings(printed).some((d) => Math.abs(Date.parse(`${d}T12:00:00Z`) - at) <= 36 * 3600_000);
}

/** The facts a pending submission states that this document contradicts. */
function submissionConflicts(
  pending: BatchRecord,
  printed: { purity: number; lab: string },
  date: StatedDate | null,
  peptideName: string,
): string[] {
  const out: string[] = [];
  if (pending.peptideName !== peptideName) out.push('peptide');
  if (pending.purity !== null && !samePurity(pending.purity, printed.purity)) out.push('purity');
  if (pending.labName !== null && !sameLab(pending.labName, printed.lab)) out.push('lab');
  if (pending.testedAt !== null && date && !sameDay(pending.testedAt, date)) out.push('test date');
  return out;
}

/**
 * The test time a queued submission records: the printed day (the reading that is not in the
 * future, for an ambiguous one), never after now — a day inside the time-zone slack is today.
 */
function testedAtOf(printed: StatedDate, nowMs: number): string {
  const past = readings(printed)
    .map((d) => Date.parse(`${d}T00:00:00Z`))
    .find((t) => t <= nowMs);
  return new Date(past ?? nowMs).toISOString();
}

/** The days a printed date can mean: one, or two when day and month could be swapped. */
function readings(printed: StatedDate): string[] {
  if (!printed.ambiguous) return [printed.iso];
  const [y, m, d] = printed.iso.split('-');
  return [printed.iso, `${y}-${d}-${m}`];
}

/** Words that say the vendor tested its own product. */
const IN_HOUSE =
  /\b(in[- ]?house|self[- ]tested|internal (qc|lab|laboratory|testing)|qc (lab|laboratory|department))\b/i;

/** An unregistered lab that is the vendor itself (its name, or in-house wording). */
function selfIssued(labText: string, vendor: VendorEntry | null, client: string | null): boolean {
  if (IN_HOUSE.test(labText)) return true;
  if (vendor && sameLab(labText, vendor.name)) return true;
  return client !== null && sameLab(labText, client);
}

/**
 * Where a buyer can check the document with the lab: the registry's verification page, with the
 * document's key in place of `{key}` when the page takes one.
 */
function verificationUrl(lab: LabEntry, f: ExtractedFields): string | null {
  if (!lab.verifyUrl) return null;
  if (!lab.verifyUrl.includes('{key}')) return lab.verifyUrl;
  return f.verificationKey ? lab.verifyUrl.replace('{key}', encodeURIComponent(f.verificationKey)) : null;
}
