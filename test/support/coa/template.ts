import type { PDFDocument } from 'pdf-lib';
import { addDays, type CoaFacts, type DateStyle, formatDate } from './facts.ts';
import type { Family, Fonts } from './sheet.ts';

/** The facts as one template prints them (dates in its style, purity with its decimals). */
export interface Printed {
  facts: CoaFacts;
  /** The test date as printed. */
  testDate: string;
  /** Other dates on the page that are not the test date: received, report, retest. */
  received: string;
  reported: string;
  retest: string;
  /** The purity as printed, e.g. `99.41%` or `99.20 %`. */
  purity: string;
  /** The method as printed in the template's method cell (may carry detail: `HPLC-UV (220 nm)`). */
  method: string;
}

/** An invented laboratory's CoA layout. */
export interface CoaTemplate {
  id: 'northwind' | 'meridian' | 'halcyon' | 'kovalent' | 'bluepoint';
  /** One line on what makes this layout different. */
  description: string;
  /** The laboratory's name as its letterhead prints it (the default `facts.lab`). */
  lab: string;
  family: Family;
  dateStyle: DateStyle;
  pages: number;
  /** Default document metadata: the software the lab's reports come from. */
  producer: string;
  creator: string;
  printPurity(purity: number): string;
  draw(doc: PDFDocument, fonts: Fonts, printed: Printed): void;
}

export function printFacts(t: CoaTemplate, facts: CoaFacts, dateStyle: DateStyle = t.dateStyle): Printed {
  return {
    facts,
    testDate: formatDate(facts.testDate, dateStyle),
    received: formatDate(addDays(facts.testDate, -2), dateStyle),
    reported: formatDate(addDays(facts.testDate, 1), dateStyle),
    retest: formatDate(addDays(facts.testDate, 730), dateStyle),
    purity: t.printPurity(facts.purity),
    method: facts.method,
  };
}
