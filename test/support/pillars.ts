import type { Pillars } from '../../src/core/vendors/model.ts';

/** Five pillar values in their documented order (coa, purity, sentiment, transparency, experience). */
export const pillars = (
  coa: number,
  purity: number,
  sentiment: number,
  transparency: number,
  experience: number,
): Pillars => ({ coa, purity, sentiment, transparency, experience });
