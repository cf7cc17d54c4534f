import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { A, APEX_VERIFIED_AT, expectOk, type Fixture, iso, LAB, setupFixture } from './fixtures.ts';

const DETAIL_KEYS = [
  'coa_count',
  'name',
  'peptide_catalog',
  'recent_coas',
  'score',
  'score_history',
  'sentiment',
  'slug',
  'tier',
  'verified',
  'verified_at',
];
const COA_KEYS = ['batch_id', 'lab', 'peptide', 'purity', 'state', 'submitted_at', 'tested_at'];
/** Without the fields that would be null (decision 0016): verified_at when not on record; score, tier, sentiment when unscored. */
const without = (...keys: string[]) => DETAIL_KEYS.filter((k) => !keys.includes(k));

const approvedCoa = (
  batchId: string,
  peptide: string,
  purity: number,
  testedAgoMs: number,
  state: 'verified' | 'stale' = 'verified',
  submittedAgoMs: number | null = null,
) => ({
  batch_id: batchId,
  peptide,
  purity,
  lab: LAB.name,
  tested_at: iso(-testedAgoMs),
  submitted_at: submittedAgoMs === null ? null : iso(-submittedAgoMs),
  state,
});

const pendingCoa = (batchId: string, peptide: string, submittedAgoMs: number) => ({
  batch_id: batchId,
  peptide,
  purity: null,
  lab: null,
  tested_at: null,
  submitted_at: iso(-submittedAgoMs),
  state: 'pending',
});

describe.each(DIALECTS)('GET /v1/vendors/{slug}, happy paths (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('apex: the whole report, at top level (no data wrapper)', async () => {
    const body = expectOk(await f.get(`${A}/vendors/apex`));
    expect(Object.keys(body).sort()).toEqual(DETAIL_KEYS);
    expect(body).toEqual({
      slug: 'apex',
      name: 'Apex Labs',
      score: 91,
      tier: 'platinum',
      verified: true,
      score_history: [91],
      coa_count: 4, // A-NEW, A-TB, A-150, A-151 (not the pending A-PEND nor the rejected A-REJ)
      sentiment: 88,
      // Listings: bpc-157 and tirzepatide. A-TB (tb-500) and A-PEND (semaglutide) are batches, not listings.
      peptide_catalog: ['BPC-157', 'Tirzepatide'],
      // Newest first by tested_at (approved) or submitted_at (pending); A-REJ (12 h ago) left out;
      // A-TB was submitted 1 h ago but tested 3 days ago: it sorts by the test.
      recent_coas: [
        approvedCoa('A-NEW', 'BPC-157', 99.1, DAY_MS, 'verified', 20 * HOUR_MS),
        pendingCoa('A-PEND', 'Semaglutide', 2 * DAY_MS),
        approvedCoa('A-TB', 'TB-500', 99.3, 3 * DAY_MS, 'verified', HOUR_MS),
        approvedCoa('A-150', 'BPC-157', 98.7, 150 * DAY_MS, 'verified'),
        approvedCoa('A-151', 'BPC-157', 99.3, 151 * DAY_MS, 'stale'),
      ],
      verified_at: APEX_VERIFIED_AT,
    });
  });

  it('recent_coas element fields are exactly batch_id, peptide, purity, lab, tested_at, submitted_at, state', async () => {
    for (const slug of ['apex', 'novara', 'halfway', 'nova', 'borealis']) {
      for (const c of expectOk(await f.get(`${A}/vendors/${slug}`)).recent_coas) {
        expect(Object.keys(c).sort()).toEqual(COA_KEYS);
      }
    }
  });

  it('recent_coas holds the newest 10 of 12 approved batches, newest first', async () => {
    const body = expectOk(await f.get(`${A}/vendors/novara`));
    expect(body.coa_count).toBe(12);
    // N-k was tested k days ago; purity 98.5 for odd k, 99.5 for even k.
    expect(body.recent_coas).toEqual(
      Array.from({ length: 10 }, (_, i) =>
        approvedCoa(
          `N-${String(i + 1).padStart(2, '0')}`,
          'BPC-157',
          i % 2 === 0 ? 98.5 : 99.5,
          (i + 1) * DAY_MS,
        ),
      ),
    );
    expect(body).toMatchObject({
      score: 90,
      tier: 'platinum',
      sentiment: 90,
      score_history: [90],
      peptide_catalog: ['BPC-157'],
    });
    // Verified, but imported without verifiedAt: the time is not on record, so verified_at is absent (not null).
    expect(Object.keys(body).sort()).toEqual(without('verified_at'));
  });

  it('a vendor with a pending, a rejected and an approved batch: coa_count 1, the rejected one left out', async () => {
    const body = expectOk(await f.get(`${A}/vendors/halfway`));
    expect(body).toEqual({
      slug: 'halfway',
      name: 'Halfway Peptides',
      score: 89,
      tier: 'gold',
      verified: true,
      score_history: [89],
      coa_count: 1,
      sentiment: 90,
      peptide_catalog: ['BPC-157'], // two listings (live 5 mg, baseline 10 mg) of one peptide: named once
      // H-PEND submitted 1 day ago, H-OK tested 2 days ago; H-REJ (3 days) is not evidence.
      recent_coas: [
        pendingCoa('H-PEND', 'BPC-157', DAY_MS),
        approvedCoa('H-OK', 'BPC-157', 98.4, 2 * DAY_MS),
      ],
    });
  });

  it('peptide_catalog is sorted by name, not slug (pt-141 is "Bremelanotide")', async () => {
    const body = expectOk(await f.get(`${A}/vendors/nova`));
    expect(body.peptide_catalog).toEqual(['BPC-157', 'Bremelanotide']);
    expect(body.recent_coas).toEqual([
      pendingCoa('NV-PEND', 'BPC-157', 4 * DAY_MS),
      approvedCoa('NV-1', 'Bremelanotide', 97.2, 6 * DAY_MS),
    ]);
    expect(body).toMatchObject({ score: 69, tier: 'bronze', coa_count: 1, sentiment: 69 });
  });

  it('an unverified vendor is still shown', async () => {
    const body = expectOk(await f.get(`${A}/vendors/borealis`));
    expect(body).toEqual({
      slug: 'borealis',
      name: 'Borealis Research',
      score: 72,
      tier: 'silver',
      verified: false,
      score_history: [72],
      coa_count: 1,
      sentiment: 60,
      peptide_catalog: ['BPC-157', 'Semaglutide', 'TB-500'],
      recent_coas: [approvedCoa('B-1', 'BPC-157', 99, DAY_MS)],
      // Not verified: no verified_at at all.
    });
  });

  it('an unscored vendor (four pillars and a score override): no score, tier or sentiment, no history', async () => {
    const body = expectOk(await f.get(`${A}/vendors/unscored`));
    // Absent, never null: the spec types score and sentiment as integers (decision 0016).
    expect(Object.keys(body).sort()).toEqual(without('score', 'tier', 'sentiment', 'verified_at'));
    expect(body).toEqual({
      slug: 'unscored',
      name: 'Unscored Inc',
      verified: true,
      score_history: [],
      coa_count: 0,
      peptide_catalog: ['BPC-157', 'GHK-Cu'],
      recent_coas: [],
    });
  });

  it('a vendor with no data at all: only what is known', async () => {
    expect(expectOk(await f.get(`${A}/vendors/bare`))).toEqual({
      slug: 'bare',
      name: 'Bare Co',
      verified: true,
      score_history: [],
      coa_count: 0,
      peptide_catalog: ['BPC-157', 'GHK-Cu'],
      recent_coas: [],
    });
  });

  it.each([
    ['orion-two', 79, 'silver'],
    ['orion-one', 70, 'silver'],
    ['alpha2', 80, 'gold'],
    ['beta', 80, 'gold'], // pinned by a score override; the pillars alone give 50
    ['nova', 69, 'bronze'],
  ])('%s: score %i, tier %s', async (slug, score, tier) => {
    expect(expectOk(await f.get(`${A}/vendors/${slug}`))).toMatchObject({
      score,
      tier,
      score_history: [score],
    });
  });
});
