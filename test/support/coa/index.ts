/**
 * Generated CoA fixtures: realistic certificates from five invented laboratories' templates, and
 * the odd and hostile files an upload endpoint must survive. Everything is built in code, fast
 * enough to build per test (a CoA takes ~5-15 ms, reading it with pdfjs ~15-25 ms; hostile
 * files are cached per process).
 *
 *   makeCoa(TEMPLATES.halcyon, { batch: 'X-1', purity: 99.41 })   → PDF bytes
 *   renderCoa(template, facts, options)                            → bytes and what was printed
 *   makeManyCoas(500)                                              → 500 distinct two-page CoAs
 */
export { type CoaFacts, type DateStyle, distinctFacts, formatDate, isoOf, SAMPLE_FACTS } from './facts.ts';
export { decompressionBombPdf, deeplyNestedPdf, lyingPageCountPdf, manyPagesPdf } from './hostile-pdfs.ts';
export {
  ALL_TEMPLATES,
  type CoaOptions,
  makeCoa,
  makeManyCoas,
  type RenderedCoa,
  renderCoa,
  TEMPLATES,
} from './make-coa.ts';
export { encryptedPdf, imageOnlyPdf, truncatedPdf } from './odd-pdfs.ts';
export type { CoaTemplate, Printed } from './template.ts';
