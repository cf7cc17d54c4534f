import { PDFDocument } from 'pdf-lib';
import { addDays, type CoaFacts, type DateStyle, distinctFacts, SAMPLE_FACTS } from './facts.ts';
import { embedFonts } from './sheet.ts';
import { type CoaTemplate, type Printed, printFacts } from './template.ts';
import { bluepoint } from './templates/bluepoint.ts';
import { halcyon } from './templates/halcyon.ts';
import { kovalent } from './templates/kovalent.ts';
import { meridian } from './templates/meridian.ts';
import { northwind } from './templates/northwind.ts';

/** The invented laboratories' layouts, by id. */
export const TEMPLATES = { northwind, meridian, halcyon, kovalent, bluepoint } as const;
export const ALL_TEMPLATES: readonly CoaTemplate[] = Object.values(TEMPLATES);

/**
 * Document metadata. Each field left out takes the template's default (its LIMS as producer and
 * creator, created and modified at 15:30 UTC the day after the test); `null` leaves it out of the
 * file altogether.
 */
export interface CoaOptions {
  producer?: string | null;
  creator?: string | null;
  creationDate?: Date | null;
  modificationDate?: Date | null;
  /** Print every date in this style instead of the template's own. */
  dateStyle?: DateStyle;
}

export interface RenderedCoa {
  bytes: Uint8Array;
  /** What was printed: the test date and purity as they appear on the page. */
  printed: Printed;
}

/** A CoA in the template's layout stating `facts` (missing facts from SAMPLE_FACTS). */
export async function renderCoa(
  template: CoaTemplate,
  facts: Partial<CoaFacts> = {},
  options: CoaOptions = {},
): Promise<RenderedCoa> {
  const full: CoaFacts = { ...SAMPLE_FACTS, lab: template.lab, ...facts };
  const printed = printFacts(template, full, options.dateStyle);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(doc, template.family);
  template.draw(doc, fonts, printed);

  const made = new Date(addDays(full.testDate, 1).getTime() + 15.5 * 3_600_000);
  const pick = <T>(v: T | null | undefined, fallback: T): T | null => (v === undefined ? fallback : v);
  const producer = pick(options.producer, template.producer);
  const creator = pick(options.creator, template.creator);
  const created = pick(options.creationDate, made);
  const modified = pick(options.modificationDate, made);
  doc.setTitle(`Certificate of Analysis ${full.batch}`);
  if (producer !== null) doc.setProducer(producer);
  if (creator !== null) doc.setCreator(creator);
  if (created !== null) doc.setCreationDate(created);
  if (modified !== null) doc.setModificationDate(modified);
  return { bytes: await doc.save(), printed };
}

/** The PDF bytes of renderCoa. */
export async function makeCoa(
  template: CoaTemplate,
  facts: Partial<CoaFacts> = {},
  options: CoaOptions = {},
): Promise<Uint8Array> {
  return (await renderCoa(template, facts, options)).bytes;
}

/**
 * `count` distinct CoAs (different batch, compound, date, purity, key in each: no two files share a
 * SHA-256), by default two-page ones (halcyon). About 5-15 ms each.
 */
export async function makeManyCoas(
  count: number,
  template: CoaTemplate = halcyon,
  base: Partial<CoaFacts> = {},
): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) out.push(await makeCoa(template, distinctFacts(i, base)));
  return out;
}
