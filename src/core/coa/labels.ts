/**
 * The label wordings CoAs use for each field. Matching is case-insensitive and tolerant of
 * punctuation and spacing (`Lot No.`, `LOT NO`, `Lot #`, `Batch/Lot No.:`). A label is only a label
 * where a cell (or a `Label:` segment of a cell) starts with it, and only when a non-letter follows,
 * so `Label claim` is not `Lab`, and prose that happens to start with `Purity` is not a value.
 */

export type LabelField =
  | 'lab'
  | 'batch'
  | 'compound'
  | 'testDate'
  | 'method'
  | 'purity'
  | 'quantity'
  | 'labelClaim'
  | 'identity'
  | 'client'
  | 'verificationKey'
  | 'verificationUrl'
  /** Labels that look like one of the above but are not (expiry date, water content, sample ID). */
  | 'ignore';

export interface LabelSpec {
  field: LabelField;
  /**
   * Lower is preferred when the document states the field under several labels: test dates
   * (0 tested, 1 reported or issued, 2 a bare `Date`, 3 received) and labs (0 `Laboratory`,
   * 1 `Tested by`, whose value must look like an organisation).
   */
  tier: number;
  source: string;
}

const SP = '[\\s._-]*';
const NO = `(?:${SP}(?:no\\b\\.?|nr\\b\\.?|number|num\\b\\.?|#|id\\b|code\\b))?`;

const SPECS: readonly LabelSpec[] = [
  {
    field: 'lab',
    tier: 0,
    source: `(?:testing\\s+|analytical\\s+|contract\\s+|issuing\\s+)?lab(?:orator(?:y|ies))?(?:\\s+name)?(?!\\s*(?:id|no|number|ref|reference|sample|address|code|report|manager|director|supervisor|contact|phone|tel|email|use)\\b)`,
  },
  {
    field: 'lab',
    tier: 1,
    source:
      '(?:tested|performed|issued|analy[sz]ed|certified|prepared)\\s+by|testing\\s+(?:facility|site)|issuer',
  },
  {
    field: 'batch',
    tier: 0,
    source: `(?:(?:client|customer|vendor|supplier|manufacturer'?s?|mfg\\.?|product)\\s+)?(?:batch|lot)(?:\\s*/\\s*(?:batch|lot))?${NO}(?!\\s*(?:size|record|release|quantity|status)\\b)`,
  },
  {
    field: 'compound',
    tier: 0,
    source:
      '(?:sample|product|compound|material|substance|analyte|peptide|test\\s+article|item)(?:\\s+(?:name|identity))?(?!\\s*(?:id|no|number|code|type|received|condition|form|size|amount|quantity|lot|batch|storage|appearance|description|reference|ref|#|weight|mass|content|purity)\\b)(?!\\s*#)',
  },
  {
    field: 'testDate',
    tier: 0,
    source:
      '(?:date\\s+(?:of\\s+)?(?:test(?:ed|ing)?|analys[ie]s|analy[sz]ed|assay)|(?:test(?:ing)?|analysis|assay)\\s+date|(?:tested|analy[sz]ed|assayed)(?:\\s+on)?)',
  },
  {
    field: 'testDate',
    tier: 1,
    source:
      '(?:(?:report|issue|release|approval|certificate)\\s+date|date\\s+(?:of\\s+)?(?:report|issue|release|approval)|(?:date\\s+)?(?:issued|reported|released|approved)(?:\\s+on)?)',
  },
  { field: 'testDate', tier: 2, source: 'date' },
  {
    field: 'testDate',
    tier: 3,
    source:
      '(?:date\\s+(?:of\\s+)?receipt|(?:date\\s+)?received(?:\\s+on)?|receipt\\s+date|sample\\s+received)',
  },
  {
    field: 'ignore',
    tier: 0,
    source:
      '(?:expiry|expiration|exp\\.?|retest|re-test|manufactur(?:e|ing)|mfg\\.?|production|sampling|best\\s+before|use\\s+by)\\s+date|date\\s+of\\s+(?:manufacture|expiry|expiration|production|sampling)|(?:water|moisture|acetate|tfa|counter-?ion|residual\\s+solvents?)(?:\\s+content)?|sample\\s+(?:id|no\\b|number|type|description|condition)|report\\s+(?:no\\b|number|id)|certificate\\s+(?:no\\b|number|id)|page',
  },
  {
    field: 'method',
    tier: 0,
    source:
      '(?:test(?:ing)?\\s+|analytical\\s+)?method(?:\\s+of\\s+analysis)?|technique|instrument(?:ation)?',
  },
  {
    field: 'purity',
    tier: 0,
    source:
      '(?:(?:hplc|uplc|rp-?hplc|chromatographic|lc)\\s+)?purity(?:\\s+by\\s+(?:rp-?)?(?:u?hplc|uplc|lc-?ms))?|assay',
  },
  {
    field: 'quantity',
    tier: 0,
    source:
      '(?:(?:net|peptide|measured|actual|total)\\s+)?(?:content|quantity|amount|mass|weight)(?:\\s+(?:found|measured|determined|per\\s+vial))?|fill\\s+(?:weight|amount)',
  },
  {
    field: 'labelClaim',
    tier: 0,
    source:
      'label(?:l?ed)?\\s*(?:claim|amount|quantity|content)?|(?:claimed|declared|nominal|stated)(?:\\s+(?:amount|content|quantity|fill))?',
  },
  {
    field: 'identity',
    tier: 0,
    source:
      'ident(?:ity|ification)(?:\\s+test)?|mass\\s+(?:confirmation|spec(?:trometry)?|identity)|ms\\s+identity|molecular\\s+(?:weight|mass)(?:\\s+confirmation)?',
  },
  {
    field: 'client',
    tier: 0,
    source:
      '(?:client|customer)(?:\\s+name)?(?!\\s*(?:id|no|number|code|ref|reference|address|lot|batch|po|order)\\b)|(?:submitted|requested|ordered)\\s+by|sponsor|submitter|prepared\\s+for|issued\\s+to',
  },
  {
    field: 'verificationKey',
    tier: 0,
    source:
      '(?:verification|verify|authentication|validation|security|access)\\s*(?:code|key|id|no\\b\\.?|number|#|token)|auth\\s+key|key',
  },
  {
    field: 'verificationUrl',
    tier: 0,
    source: '(?:verification|verify)\\s*(?:url|link|page|online|at)|url|online\\s+verification',
  },
];

/**
 * The separator after a label: an optional bracketed qualifier, then `:`, `=`, a spaced dash or
 * dot leaders (`LOT NUMBER ......: X`, as LIMS printouts pad labels).
 */
const AFTER = '\\s*(?:\\(([^)]{0,60})\\))?\\s*(?:(\\.{2,}\\s*[:：=]?|[:：=]|[-–—](?=\\s))\\s*)?';
// Bullets and markers some layouts put in front of labels.
const BEFORE = '^[\\s•·▪►*]*';

const COMPILED = SPECS.map((s) => ({
  spec: s,
  re: new RegExp(`${BEFORE}((?:${s.source}))(?![\\p{L}\\p{N}])${AFTER}`, 'iu'),
}));

export interface LabelMatch {
  spec: LabelSpec;
  /** The label as printed, without qualifier or separator. */
  label: string;
  /** A bracketed qualifier right after the label (`Purity (HPLC)` gives `HPLC`). */
  qualifier: string | null;
  /** True when a `:` (or `=`, a spaced dash, dot leaders) follows the label. */
  separated: boolean;
  /** What follows the label and separator, trimmed ('' for a label on its own). */
  rest: string;
}

/** The most specific label the text starts with (the longest label; `Date tested` beats `Date`). */
export function matchLabel(text: string): LabelMatch | null {
  let best: { spec: LabelSpec; m: RegExpExecArray } | null = null;
  for (const { spec, re } of COMPILED) {
    const m = re.exec(text);
    if (m && (!best || (m[1] ?? '').length > (best.m[1] ?? '').length)) best = { spec, m };
  }
  if (!best) return null;
  const { spec, m } = best;
  return {
    spec,
    label: m[1] ?? '',
    qualifier: m[2]?.trim() || null,
    separated: m[3] !== undefined,
    rest: text.slice(m[0].length).trim(),
  };
}

// Where a second `Label:` starts inside a cell (`Lot No.: A-1  Date tested: 2026-03-12`).
const INNER_LABEL = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${SPECS.map((s) => s.source).join('|')})(?![\\p{L}\\p{N}])\\s*(?:\\([^)]{0,60}\\))?\\s*[:：]`,
  'giu',
);

/**
 * Splits a cell that holds several `Label: value` pairs at each label followed by a colon. The
 * first segment is whatever precedes the first such label.
 */
export function splitAtLabels(text: string): string[] {
  // Most cells hold no second colon: skip the scan (the pattern is long; this is the hot path).
  if (text.indexOf(':', 1) < 0 && !text.includes('：')) return [text];
  const starts: number[] = [];
  for (const m of text.matchAll(INNER_LABEL)) if (m.index > 0) starts.push(m.index);
  if (starts.length === 0) return [text];
  const out: string[] = [];
  let from = 0;
  for (const s of starts) {
    out.push(text.slice(from, s));
    from = s;
  }
  out.push(text.slice(from));
  return out.map((s) => s.trim()).filter((s) => s !== '');
}
