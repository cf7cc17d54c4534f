import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, expectError, iso, OTHER, OWNER, setupAdmin } from './helpers.ts';

describe.each(DIALECTS)('operator API: reviews and replies (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  /** Runs a request that must be refused, and checks that it wrote nothing. */
  const refused = async (
    run: () => Promise<Parameters<typeof expectError>[0]>,
    status: number,
    code: string,
  ) => {
    const version = f.dataVersion();
    const events = await f.events();
    const message = expectError(await run(), status, code);
    expect(f.dataVersion()).toBe(version);
    expect(await f.events()).toEqual(events);
    return message;
  };

  describe('POST /reviews', () => {
    it('adds a review (201) with a new id, writes review.new, and moves sentiment', async () => {
      const before = (await f.call('GET', '/vendors/apex')).json();
      const res = await f.call('POST', '/reviews', {
        vendorSlug: 'apex',
        rating: 1,
        title: 'Never arrived',
        body: 'Three weeks and nothing.',
        author: 'Sam',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ id: expect.stringMatching(/^rev_[0-9a-f]{16}$/), vendorSlug: 'apex' });
      const event = (await f.events('&type=review.new')).at(-1);
      expect(event?.data).toEqual({
        vendor_slug: 'apex',
        review_id: body.id,
        rating: 1,
        title: 'Never arrived',
        body: 'Three weeks and nothing.',
        author: 'Sam',
        created_at: iso(0),
      });
      const after = (await f.call('GET', '/vendors/apex')).json();
      expect(after.computed.sentiment).toBeLessThan(before.computed.sentiment);
      if (after.score === before.score) expect(body.scoreChanges).toEqual([]);
      else
        expect(body.scoreChanges).toEqual([
          { vendorSlug: 'apex', previous: before.score, next: after.score },
        ]);
      expect(await f.publicScore('apex')).toBe(after.score);
    });

    it('takes an id and a time; an id that exists is 409 and writes nothing', async () => {
      const review = {
        id: 'ext-123',
        vendorSlug: 'borealis',
        rating: 4,
        title: 'Good',
        body: '',
        author: 'Kim',
        createdAt: '2026-05-31T14:00:00+02:00',
      };
      const res = await f.call('POST', '/reviews', review);
      expect(res.statusCode).toBe(201);
      expect(res.json().id).toBe('ext-123');
      expect((await f.events('&type=review.new')).at(-1)?.data).toMatchObject({
        review_id: 'ext-123',
        created_at: '2026-05-31T12:00:00.000Z',
      });
      expect(await refused(() => f.call('POST', '/reviews', review), 409, 'conflict')).toBe(
        "Review 'ext-123' already exists.",
      );
    });

    it('404 for an unknown vendor', async () => {
      const body = { vendorSlug: 'nope', rating: 4, title: 't', body: 'b', author: 'a' };
      expect(await refused(() => f.call('POST', '/reviews', body), 404, 'not_found')).toBe(
        "Vendor 'nope' does not exist.",
      );
    });

    const good = { vendorSlug: 'apex', rating: 4, title: 't', body: 'b', author: 'a' };
    it.each([
      [{ ...good, rating: 6 }, "Parameter 'rating' must be at most 5."],
      [{ ...good, rating: 4.5 }, "Parameter 'rating' must be an integer."],
      [{ ...good, rating: '5' }, "Parameter 'rating' must be an integer."],
      [{ ...good, author: undefined }, "Parameter 'author' is required."],
      [{ ...good, id: 'has space' }, "Parameter 'id' has an invalid format."],
      [{ ...good, createdAt: 'yesterday' }, "Parameter 'createdAt'"],
      [{ ...good, createdAt: iso(DAY_MS) }, 'review: createdAt is in the future.'],
      [{ ...good, stars: 5 }, "Parameter 'stars' is not recognised."],
    ])('400 for a bad review (%#)', async (body, message) => {
      expect(await refused(() => f.call('POST', '/reviews', body), 400, 'invalid_parameter')).toContain(
        message,
      );
    });
  });

  describe('POST /reviews/{id}/reply', () => {
    it("the owner's reply (201) writes review.reply; a second reply is 409", async () => {
      const res = await f.call('POST', '/reviews/rev-apex-1/reply', {
        body: 'Thank you!',
        account: OWNER,
        createdAt: iso(-HOUR_MS),
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ reviewId: 'rev-apex-1', account: OWNER, scoreChanges: [] });
      expect((await f.events('&type=review.reply')).map((e) => e.data)).toEqual([
        { vendor_slug: 'apex', review_id: 'rev-apex-1', body: 'Thank you!', created_at: iso(-HOUR_MS) },
      ]);
      expect(
        await refused(
          () => f.call('POST', '/reviews/rev-apex-1/reply', { body: 'Again', account: OWNER }),
          409,
          'conflict',
        ),
      ).toBe("Review 'rev-apex-1' already has a reply.");
    });

    it('another account may not reply for the vendor (400 naming account)', async () => {
      const review = await f.call('POST', '/reviews', {
        vendorSlug: 'apex',
        rating: 3,
        title: 't',
        body: 'b',
        author: 'a',
      });
      const id = review.json().id;
      expect(
        await refused(
          () => f.call('POST', `/reviews/${id}/reply`, { body: 'Not mine', account: OTHER }),
          400,
          'invalid_parameter',
        ),
      ).toBe(
        `Account '${OTHER}' cannot reply to review '${id}': a reply's account must be the account that owns vendor 'apex'.`,
      );
    });

    it('a review of an unclaimed vendor has nobody to reply: 409', async () => {
      expect(
        await refused(
          () => f.call('POST', '/reviews/rev-bor-1/reply', { body: 'Hi', account: OWNER }),
          409,
          'conflict',
        ),
      ).toContain('not claimed');
    });

    it('404 for an unknown review; 400 for a bad body', async () => {
      expect(
        await refused(
          () => f.call('POST', '/reviews/nope/reply', { body: 'Hi', account: OWNER }),
          404,
          'not_found',
        ),
      ).toBe("Review 'nope' does not exist.");
      expect(
        await refused(
          () => f.call('POST', '/reviews/rev-apex-1/reply', { body: '', account: OWNER }),
          400,
          'invalid_parameter',
        ),
      ).toBe("Parameter 'body' must not be empty.");
      expect(
        await refused(
          () => f.call('POST', '/reviews/rev-apex-1/reply', { body: 'x' }),
          400,
          'invalid_parameter',
        ),
      ).toBe("Parameter 'account' is required.");
    });
  });
});
