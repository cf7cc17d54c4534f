import { notFound } from '../errors.ts';
import type { BatchAdminView } from '../operator/model.ts';
import type { CoaStore, OperatorStore } from '../ports.ts';

/** What a sample certificate states: a batch on file, as its lab would print it. */
export interface CoaFacts {
  lab: string;
  batch: string;
  compound: string;
  /** YYYY-MM-DD. */
  testDate: string;
  method: string;
  purity: number;
  client: string;
}

/** Turns facts into a PDF (adapters/pdf/render-coa.ts). */
export type CoaRenderer = (facts: CoaFacts) => Promise<Uint8Array>;

/**
 * The facts of an approved batch on file, for `purerank coa sample`: a document the verifier
 * will find `verified`, to try the upload endpoint with. Without a batch id, the vendor's newest
 * approved batch.
 */
export async function sampleFacts(
  deps: { operator: OperatorStore; coa: CoaStore },
  vendorSlug: string,
  batchId?: string,
): Promise<{ facts: CoaFacts; peptideSlug: string; vendorSlug: string }> {
  const batch: BatchAdminView | null =
    batchId !== undefined
      ? await deps.operator.batch(vendorSlug, batchId)
      : ((await deps.operator.approvedBatches(vendorSlug, 1))[0] ?? null);
  if (!batch)
    throw notFound(batchId === undefined ? 'Approved batch of vendor' : 'Batch', batchId ?? vendorSlug);
  if (batch.status !== 'approved' || batch.purity === null || batch.lab === null || batch.testedAt === null) {
    throw notFound('Approved batch with purity, lab and test date', batch.batchId);
  }
  const dir = await deps.coa.directory();
  const lab = dir.labs.find((l) => l.slug === batch.lab);
  const peptide = dir.peptides.find((p) => p.slug === batch.peptideSlug);
  const vendor = dir.vendors.find((v) => v.slug === batch.vendorSlug);
  if (!lab || !peptide || !vendor) throw notFound('Batch', batch.batchId);
  return {
    peptideSlug: peptide.slug,
    vendorSlug: vendor.slug,
    facts: {
      lab: lab.name,
      batch: batch.batchId,
      compound: peptide.name,
      testDate: batch.testedAt.slice(0, 10),
      method: batch.testMethod ?? 'HPLC',
      purity: batch.purity,
      client: vendor.name,
    },
  };
}
