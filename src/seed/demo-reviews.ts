/** Text pools for demo reviews and vendor replies, keyed by sentiment. `{p}` is a peptide name. */

export type Sentiment = 'positive' | 'neutral' | 'negative';

export const sentimentOf = (rating: number): Sentiment =>
  rating >= 4 ? 'positive' : rating === 3 ? 'neutral' : 'negative';

export const TITLES: Record<Sentiment, readonly string[]> = {
  positive: [
    'Consistent quality',
    'Fast shipping, clean CoA',
    'My go-to supplier',
    'Exactly as described',
    'Great communication',
    'Reliable for {p}',
    'Second order, still impressed',
    'Solid {p}',
    'Well packed and quick',
    'Numbers match the report',
    'No complaints',
    'Good value',
  ],
  neutral: [
    'Decent but slow',
    'Okay experience',
    'Fine product, average service',
    'Mixed feelings',
    'Took a while',
    'Would order {p} again, maybe',
    'Nothing special',
  ],
  negative: [
    'Package arrived damaged',
    'CoA did not match the vial',
    'Slow support',
    'Never again',
    'Wrong item shipped',
    'Disappointed with {p}',
    'Lost in transit',
    'Overpriced for what it is',
  ],
};

export const BODIES: Record<Sentiment, readonly string[]> = {
  positive: [
    'Ordered {p} and it arrived within three days.',
    'Vials were fully lyophilised and the cake looked uniform.',
    'The batch number on the vial matched the published HPLC report.',
    'Support answered my question about storage in under an hour.',
    'Independent testing came back within a percent of the listed purity.',
    'Packaging was discreet and well insulated.',
    'Third order from them and every lot has been consistent.',
    'Prices are fair for the quality you get.',
    'Tracking was provided the same day.',
    'Reconstituted cleanly with no particulates.',
  ],
  neutral: [
    'Shipping took almost two weeks, but the {p} itself looked fine.',
    'The CoA was available, though I had to ask for it.',
    'Product seems okay; I have not had it tested yet.',
    'Website checkout was clunky.',
    'One vial had a loose cap, the rest were fine.',
    'Prices went up since my last order.',
  ],
  negative: [
    'The {p} vial had a different batch number than the report they sent.',
    'It took five emails to get a reply.',
    'The parcel sat in customs for three weeks with no help from them.',
    'My own test came back well under the advertised purity.',
    'They shipped the wrong size and refused to swap it.',
    'Half the vials arrived cracked.',
    'Refund was promised and never arrived.',
  ],
};

export const REPLIES: Record<Sentiment, readonly string[]> = {
  positive: [
    'Thank you for the kind words, we appreciate your continued business!',
    'Glad everything arrived in good shape. Thanks for sharing your results.',
    'Thanks for the review. Our QA team will be happy to hear it.',
  ],
  neutral: [
    'Thanks for the feedback. We have since moved to a faster courier.',
    'Sorry about the delay; we are working on shorter dispatch times.',
    'We appreciate the honest review and are improving checkout.',
  ],
  negative: [
    'We are sorry to hear this. Please email support with your order number so we can make it right.',
    'This is not the standard we hold ourselves to. A replacement has been offered via email.',
    'We could not find an order under this name; please contact us so we can investigate.',
    'The batch in question was re-tested and the report is now on our site. Please reach out.',
  ],
};

const HANDLE_A = [
  'lab',
  'bench',
  'vial',
  'assay',
  'helix',
  'amino',
  'pipette',
  'proto',
  'recon',
  'titer',
  'quiet',
  'north',
];
const HANDLE_B = ['rat', 'nerd', 'runner', 'owl', 'geek', 'fox', 'monk', 'pilot', 'wizard', 'ghost', 'smith'];

export function authorHandle(pick: <T>(xs: readonly T[]) => T, num: number): string {
  const a = pick(HANDLE_A);
  const b = pick(HANDLE_B);
  const style = num % 4;
  if (style === 0) return `${a}${b}`;
  if (style === 1) return `${a}_${b}${num % 100}`;
  if (style === 2) return `${a[0]!.toUpperCase()}${a.slice(1)}${b[0]!.toUpperCase()}${b.slice(1)}`;
  return `${b}.${a}${1980 + (num % 25)}`;
}

export const fill = (template: string, peptide: string): string => template.replaceAll('{p}', peptide);
