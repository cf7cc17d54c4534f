/** What a generated CoA states. Templates decide how each fact is printed. */
export interface CoaFacts {
  /** The issuing laboratory, as its letterhead prints it. */
  lab: string;
  batch: string;
  /** The compound as printed: `BPC157`, `BPC-157 Acetate`, `TB-500 (Thymosin Beta-4)`. */
  compound: string;
  /** The day of analysis: a Date (its UTC day is used) or an ISO day `2026-03-12`. */
  testDate: Date | string;
  /** `HPLC`, `HPLC-UV`, `LC-MS`. */
  method: string;
  /** Percent; printed with the template's decimals (`99.2%`, `99.20 %`). */
  purity: number;
  /** Measured content and label claim as printed: `10.13 mg`, `10 mg`. */
  quantity: string;
  labelClaim: string;
  /** Identity result as printed: `Conforms`, `Pass`. */
  identity: string;
  /** The ordering vendor. */
  client: string;
  verificationKey: string;
  verificationUrl?: string | null;
}

/** How a template prints days. */
export type DateStyle =
  /** 2026-03-12 */
  | 'iso'
  /** 12 Mar 2026 */
  | 'day-mon-year'
  /** 12-Mar-2026 */
  | 'dd-mon-yyyy'
  /** March 12, 2026 */
  | 'month-day-year'
  /** 03/12/2026 (US) */
  | 'us-slash'
  /** 12.03.2026 (European) */
  | 'dotted';

const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const MONTH = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The UTC day of a Date or ISO day, as [year, month 1..12, day]. */
export function dayOf(d: Date | string): [number, number, number] {
  const date = typeof d === 'string' ? new Date(`${d.slice(0, 10)}T00:00:00Z`) : d;
  if (!Number.isFinite(date.getTime())) throw new Error(`not a day: ${String(d)}`);
  return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}

export function isoOf(d: Date | string): string {
  const [y, m, day] = dayOf(d);
  return `${y}-${pad(m)}-${pad(day)}`;
}

/** `d` moved by whole days. */
export function addDays(d: Date | string, days: number): Date {
  const [y, m, day] = dayOf(d);
  return new Date(Date.UTC(y, m - 1, day + days));
}

export function formatDate(d: Date | string, style: DateStyle): string {
  const [y, m, day] = dayOf(d);
  switch (style) {
    case 'iso':
      return `${y}-${pad(m)}-${pad(day)}`;
    case 'day-mon-year':
      return `${day} ${MON[m - 1]} ${y}`;
    case 'dd-mon-yyyy':
      return `${pad(day)}-${MON[m - 1]}-${y}`;
    case 'month-day-year':
      return `${MONTH[m - 1]} ${day}, ${y}`;
    case 'us-slash':
      return `${pad(m)}/${pad(day)}/${y}`;
    case 'dotted':
      return `${pad(day)}.${pad(m)}.${y}`;
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export const SAMPLE_FACTS: CoaFacts = {
  lab: 'Northwind Analytical Laboratories',
  batch: 'PX-0118',
  compound: 'BPC-157',
  testDate: '2026-03-12',
  method: 'HPLC-UV',
  purity: 99.2,
  quantity: '10.13 mg',
  labelClaim: '10 mg',
  identity: 'Conforms',
  client: 'Aurora Peptide Works',
  verificationKey: 'NWA-7K2P-91QX',
  verificationUrl: 'https://verify.northwind-labs.example/coa',
};

const COMPOUNDS = ['BPC-157', 'TB-500', 'Semaglutide', 'GHK-Cu', 'Ipamorelin', 'CJC-1295'] as const;
const CLIENTS = ['Aurora Peptide Works', 'Helix Research Supply', 'Summit Compounds', 'Vantage Bio Labs'];

/**
 * The i-th of a series of distinct, plausible fact sets (batch `X-<i>`, dates, purities and
 * quantities varying with i), for benchmarks and route tests that need many different files.
 */
export function distinctFacts(i: number, base: Partial<CoaFacts> = {}): CoaFacts {
  const day = addDays('2026-01-05', i % 300);
  return {
    ...SAMPLE_FACTS,
    batch: `X-${i}`,
    compound: COMPOUNDS[i % COMPOUNDS.length] ?? 'BPC-157',
    testDate: day,
    purity: Math.round((97.5 + ((i * 37) % 240) / 100) * 100) / 100,
    quantity: `${(9.6 + ((i * 13) % 80) / 100).toFixed(2)} mg`,
    labelClaim: '10 mg',
    client: CLIENTS[i % CLIENTS.length] ?? 'Aurora Peptide Works',
    verificationKey: `VK-${(1000003 * (i + 1)).toString(36).toUpperCase()}`,
    ...base,
  };
}
