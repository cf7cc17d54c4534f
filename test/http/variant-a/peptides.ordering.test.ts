import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectList, expectOk, type Fixture, iso, setupFixture } from './fixtures.ts';

/*
 * Mixed-case peptide names. "By name" is read the way every other ordering of the API reads names
 * (case-insensitively, as the vendor ranking does), which is also what makes the order the same on
 * every database collation: byte order would put "MOTS-c" ('O' = 0x4F) before "Melanotan II"
 * ('e' = 0x65), a case-insensitive order puts "melanotan ii" before "mots-c".
 *
 * Expected /v1/peptides order (case-insensitive): BPC-157, Bremelanotide, GHK-Cu, Ipamorelin,
 * Melanotan II, MOTS-c, Semaglutide, TB-500, Tirzepatide.
 */
describe.each(DIALECTS)('GET /v1/peptides, ordering of mixed-case names (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
    const r = await f.ctx.load([
      {
        type: 'peptide',
        slug: 'mots-c',
        name: 'MOTS-c',
        category: 'metabolic',
        molecularWeight: '2174.6 g/mol',
      },
      {
        type: 'peptide',
        slug: 'melanotan-2',
        name: 'Melanotan II',
        category: 'tanning',
        molecularWeight: '1024.2 g/mol',
      },
      ...['mots-c', 'melanotan-2'].map((peptideSlug) => ({
        type: 'price',
        vendorSlug: 'apex',
        peptideSlug,
        vialMg: 10,
        source: 'live',
        totalUsd: 50,
        inStock: true,
        updatedAt: iso(),
      })),
    ]);
    if (!r.ok) throw new Error(JSON.stringify(r));
  });
  afterAll(async () => f?.ctx.close());

  it('the library sorts names case-insensitively', async () => {
    const body = expectList(await f.get(`${A}/peptides`), false);
    expect(body.data.map((p: { name: string }) => p.name)).toEqual([
      'BPC-157',
      'Bremelanotide',
      'GHK-Cu',
      'Ipamorelin',
      'Melanotan II',
      'MOTS-c',
      'Semaglutide',
      'TB-500',
      'Tirzepatide',
    ]);
  });

  it("a vendor's peptide_catalog sorts names the same way", async () => {
    expect(expectOk(await f.get(`${A}/vendors/apex`)).peptide_catalog).toEqual([
      'BPC-157',
      'Melanotan II',
      'MOTS-c',
      'Tirzepatide',
    ]);
  });
});
