import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectEnvelope, type Fixture, iso, PILLARS, setupFixture } from './fixtures.ts';

const DETAIL_KEYS = [
  'description',
  'location',
  'name',
  'pending',
  'pillars',
  'score',
  'scoreHistory',
  'slug',
  'verified',
];

describe.each(DIALECTS)('GET /api/v1/vendors/{slug}, happy paths (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('a premium vendor with a website: every field, website included', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors/apex`));
    expect(data).toEqual({
      slug: 'apex',
      name: 'Apex Labs',
      score: 91,
      verified: true,
      pending: false,
      location: 'USA',
      pillars: PILLARS.apex,
      description: 'Premium supplier.',
      website: 'https://apex.example.com',
      scoreHistory: [91],
    });
  });

  it('a free-listing vendor never shows its website (absent, not null)', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors/borealis`));
    expect(Object.keys(data).sort()).toEqual(DETAIL_KEYS);
    expect('website' in data).toBe(false);
    expect(data).toEqual({
      slug: 'borealis',
      name: 'Borealis Research',
      score: 72,
      verified: false,
      pending: true,
      location: 'Canada',
      pillars: PILLARS.borealis,
      description: 'Free listing with a website on file.',
      scoreHistory: [72],
    });
  });

  it('a premium vendor without a website has no website field', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors/zeta`));
    expect(Object.keys(data).sort()).toEqual(DETAIL_KEYS);
    expect(data.score).toBe(80);
  });

  it('defaults: empty description, verified/pending false', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors/beta`));
    expect(data).toEqual({
      slug: 'beta',
      name: 'Beta',
      score: 80, // pinned by the score override (pillars give 50)
      verified: false,
      pending: false,
      location: 'Poland',
      pillars: PILLARS.beta,
      description: '',
      scoreHistory: [80],
    });
  });

  it.each([
    ['unscored', 'Unscored Inc', 'France', 'Four pillars only.'],
    ['bare', 'Bare Co', 'Spain', ''],
  ])(
    'unscored vendor %s → 200 without score and pillars (never null, decision 0016), pending (too little evidence)',
    async (slug, name, location, description) => {
      const data = expectEnvelope(await f.get(`${B}/vendors/${slug}`));
      expect(data).toEqual({
        slug,
        name,
        verified: false,
        pending: true,
        location,
        description,
        scoreHistory: [],
      });
      expect(Object.keys(data)).not.toContain('score');
      expect(Object.keys(data)).not.toContain('pillars');
    },
  );

  it('a re-import with changed overrides appends to scoreHistory (oldest first); an identical one does not', async () => {
    f.ctx.clock.advance(HOUR_MS);
    // borealis coa 80 → 100: 30 + 17.5 + 9 + 11.25 + 9.75 = 77.5 → 78
    const change = [
      { type: 'override', vendorSlug: 'borealis', field: 'coa', value: 100, reason: 'recheck' },
    ];
    expect((await f.ctx.load(change)).ok).toBe(true);
    let data = expectEnvelope(await f.get(`${B}/vendors/borealis`), iso(HOUR_MS));
    expect(data.score).toBe(78);
    expect(data.pillars.coa).toBe(100);
    expect(data.scoreHistory).toEqual([72, 78]);

    f.ctx.clock.advance(HOUR_MS);
    expect((await f.ctx.load(change)).ok).toBe(true);
    data = expectEnvelope(await f.get(`${B}/vendors/borealis`), iso(2 * HOUR_MS));
    expect(data.scoreHistory).toEqual([72, 78]);

    // Pinning the score, then clearing the pin: 78 → 60 → 78.
    f.ctx.clock.advance(HOUR_MS);
    expect(
      (
        await f.ctx.load([
          { type: 'override', vendorSlug: 'borealis', field: 'score', value: 60, reason: 'pin' },
        ])
      ).ok,
    ).toBe(true);
    expect(
      (await f.ctx.load([{ type: 'override', vendorSlug: 'borealis', field: 'score', value: null }])).ok,
    ).toBe(true);
    data = expectEnvelope(await f.get(`${B}/vendors/borealis`), iso(3 * HOUR_MS));
    expect(data.score).toBe(78);
    expect(data.scoreHistory).toEqual([72, 78, 60, 78]);
  });
});
