import { z } from 'zod';

/**
 * Pieces the tools' zod schemas share. Inputs mirror the REST parameters' limits; outputs name the
 * fields the REST presenters send and let through any they add later (passthrough), so a new REST
 * field never makes a tool's output fail its own schema.
 */

/** A slug as the lists give it (the REST path parameters' limits). */
export const slug = (what: string) =>
  z.string().min(1).max(200).describe(`${what} slug, lower case, as the lists give it.`);

export const Pillars = z
  .object({
    coa: z.number().int(),
    purity: z.number().int(),
    sentiment: z.number().int(),
    transparency: z.number().int(),
    experience: z.number().int(),
  })
  .describe('The five sub-scores, 0..100 (docs/methodology.md).');

export const Tier = z.enum(['platinum', 'gold', 'silver', 'bronze']);

/** Variant B's envelope around `data`. */
export const envelope = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    data,
    data_updated_at: z.string().describe('When the catalog data last changed (ISO 8601).'),
  });
