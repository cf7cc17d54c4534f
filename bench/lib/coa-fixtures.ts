import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { DEMO_PEPTIDES } from '../../src/seed/demo-peptides.ts';
import { scaleLabSlug } from '../../src/seed/scale-dataset.ts';
import { distinctFacts, renderCoa, TEMPLATES } from '../../test/support/coa/index.ts';
import { BenchError } from './procs.ts';
import { mulberry32 } from './stats.ts';

/**
 * The CoAs the `coa` scenario uploads: realistic two-page certificates (the halcyon template of
 * test/support/coa), every one a different file, half of them corroborated by an approved record
 * of the scale dataset (answer `verified`) and half for a batch the database has never seen
 * (answer `pending_review`, which writes a pending submission). Each upload is one prebuilt
 * multipart body, so the client spends nothing on encoding while it measures.
 */

export type Expected = 'verified' | 'pending_review';

export interface Upload {
  /** The whole multipart/form-data body: `file`, `peptide`, `vendor`, `batch_id`. */
  body: Buffer;
  contentType: string;
  expected: Expected;
  /** Size of the PDF alone. */
  pdfBytes: number;
}

/** An approved scale batch whose CoA the bench can print: every fact the verifier corroborates. */
interface OnFile {
  batchId: string;
  peptideName: string;
  peptideSlug: string;
  vendorSlug: string;
  vendorName: string;
  labName: string;
  purity: number;
  testedAt: string;
}

/** Trusted labs of the scale dataset (scale-dataset.ts: labs 04–19 are trusted). */
const TRUSTED_LABS = Array.from({ length: 16 }, (_, i) => i + 4);

/**
 * Approved batches of the library's real peptides (the scale dataset also has 2,000 numbered
 * variants such as `Larazotide-2403`, whose printed name a CoA reader could fairly take for the
 * plain peptide), spread over the whole table (every batch-number format), in a fixed order.
 */
export function recordsOnFile(dbPath: string, count: number): OnFile[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const names = DEMO_PEPTIDES.map((p) => p.name);
    const rows = db
      .prepare(
        `select b.batch_id as batchId, p.name as peptideName, p.slug as peptideSlug, v.slug as vendorSlug,
                v.name as vendorName, l.name as labName, b.purity as purity, b.tested_at as testedAt
           from batches b
           join peptides p on p.id = b.peptide_id
           join vendors v on v.id = b.vendor_id
           join labs l on l.id = b.lab_id
          where b.status = 'approved' and b.purity is not null and b.tested_at is not null
            and p.name in (${names.map(() => '?').join(',')})
          order by b.id`,
      )
      .all(...names) as OnFile[];
    if (rows.length === 0)
      throw new BenchError('the scale dataset has no approved batch of a library peptide');
    // Evenly spaced over the table: every vendor size, lab and batch-number format.
    const n = Math.min(count, rows.length);
    const step = rows.length / n;
    return Array.from({ length: n }, (_, i) => rows[Math.floor(i * step)]!);
  } finally {
    db.close();
  }
}

/** Scale vendors to submit new batches for, in a fixed pseudo-random order. */
export function someVendors(dbPath: string, count: number, seed = 0xc0a): { slug: string; name: string }[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const all = db.prepare('select slug, name from vendors order by id').all() as {
      slug: string;
      name: string;
    }[];
    const rnd = mulberry32(seed);
    return Array.from({ length: count }, () => all[Math.floor(rnd() * all.length)]!);
  } finally {
    db.close();
  }
}

const CRLF = '\r\n';

/** A multipart/form-data body of text fields and one PDF, as a browser or curl would send it. */
export function multipartBody(
  fields: Record<string, string>,
  pdf: Uint8Array,
): { body: Buffer; contentType: string } {
  const boundary = `----purerank-bench-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`,
      ),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename="coa.pdf"${CRLF}` +
        `Content-Type: application/pdf${CRLF}${CRLF}`,
    ),
    Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength),
    Buffer.from(`${CRLF}--${boundary}--${CRLF}`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Which files a series holds: both kinds alternating (the scenario), or one kind only (a
 * diagnostic: BENCH_COA_ONLY=verified shows the service without its write per upload).
 */
export type Mix = 'both' | Expected;

/**
 * Builds uploads `from`..`from + count - 1` of the series: with `both`, even ones print an
 * approved record on file, odd ones a new batch `CB-<i>` of a scale vendor tested by a trusted lab
 * a few weeks ago. Deterministic for a given dataset and day; every file differs (batch or
 * verification code, quantity, dates), so no upload can be answered from an earlier one's SHA-256.
 */
export async function makeUploads(opts: {
  from: number;
  count: number;
  mix: Mix;
  onFile: readonly OnFile[];
  vendors: readonly { slug: string; name: string }[];
  nowMs: number;
}): Promise<Upload[]> {
  const out: Upload[] = [];
  for (let i = opts.from; i < opts.from + opts.count; i++) {
    let facts: ReturnType<typeof distinctFacts>;
    let fields: Record<string, string>;
    let expected: Expected;
    const kind = opts.mix === 'both' ? (i % 2 === 0 ? 'verified' : 'pending_review') : opts.mix;
    // The k-th file of its kind; a record is printed again (another verification code) past the end.
    const k = opts.mix === 'both' ? i >> 1 : i;
    if (kind === 'verified') {
      const r = opts.onFile[k % opts.onFile.length]!;
      facts = distinctFacts(i, {
        lab: r.labName,
        batch: r.batchId,
        compound: r.peptideName,
        testDate: r.testedAt.slice(0, 10),
        purity: r.purity,
        client: r.vendorName,
      });
      fields = { peptide: r.peptideSlug, vendor: r.vendorSlug, batch_id: r.batchId };
      expected = 'verified';
    } else {
      const v = opts.vendors[k % opts.vendors.length]!;
      const p = DEMO_PEPTIDES[i % DEMO_PEPTIDES.length]!;
      const lab = TRUSTED_LABS[i % TRUSTED_LABS.length]!;
      const batch = `CB-${String(i).padStart(6, '0')}`;
      facts = distinctFacts(i, {
        lab: `Scale Analytical ${scaleLabSlug(lab).slice(-2)}`,
        batch,
        compound: p.name,
        testDate: new Date(opts.nowMs - (3 + (i % 40)) * 86_400_000),
        client: v.name,
      });
      fields = { peptide: p.slug, vendor: v.slug, batch_id: batch };
      expected = 'pending_review';
    }
    const pdf = (await renderCoa(TEMPLATES.halcyon, facts)).bytes;
    out.push({ ...multipartBody(fields, pdf), expected, pdfBytes: pdf.byteLength });
  }
  return out;
}
