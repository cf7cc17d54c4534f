import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, setupCoa } from '../coa/fixtures.ts';
import {
  expectCleanMarkup,
  expectPage,
  type Pages,
  pages,
  type SignedInUser,
  signIn,
} from './console-fixture.ts';

interface Row {
  seq: number;
  type: string;
  vendor: string;
  payload: string;
}

/** The events table's rows as the page shows them. */
function rows(html: string): Row[] {
  return [
    ...html.matchAll(
      /<th scope="row" class="num">(\d+)<\/th>\s*<td>([a-z_.]+)<\/td>\s*<td><a [^>]*>([^<]*)<\/a><\/td>[\s\S]*?<pre class="mono">([\s\S]*?)<\/pre>/g,
    ),
  ].map((m) => ({ seq: Number(m[1]), type: m[2]!, vendor: m[3]!, payload: m[4]! }));
}

const olderLink = (html: string): string | null =>
  /<a href="([^"]+)">Older<\/a>/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null;

/**
 * The outbox in the console: newest first, filtered by type and vendor, paged by seq, each
 * payload shown in a <pre>; read through Operator.events as the CLI and the operator API read it.
 */
describe.each(DIALECTS)('console events (%s)', (dialect) => {
  let f: CoaFixture;
  let p: Pages;
  let operator: SignedInUser;

  beforeAll(async () => {
    f = await setupCoa(dialect);
    p = pages(f.ctx);
    operator = await signIn(f.ctx, 'events-ops@example.com', { role: 'operator' });
    // 70 score overrides, alternating vendors, each moving the score (a score.changed at least),
    // then one review.new with markup in it.
    for (let i = 0; i < 70; i++) {
      const vendor = i % 2 === 0 ? 'aurora' : 'helix';
      await f.ctx.container.operator.setOverride(vendor, 'score', 61 + ((i >> 1) % 2), 'paging', 'setup');
    }
    await f.ctx.container.operator.addReview(
      {
        vendorSlug: 'aurora',
        rating: 4,
        title: '<script>alert(1)</script>',
        body: 'fine & fast',
        author: 'Ann',
      },
      'setup',
    );
  });
  afterAll(async () => f?.ctx.close());

  it('newest first, each payload in a <pre>, escaped', async () => {
    const all = await f.ctx.container.operator.events({ limit: 1000 });
    const html = expectPage(await p.get('/console/events', operator));
    expectCleanMarkup(html);
    const shown = rows(html);
    expect(shown).toHaveLength(50);
    expect(shown.map((r) => r.seq)).toEqual(
      all
        .map((e) => e.seq)
        .reverse()
        .slice(0, 50),
    );
    expect(shown[0]).toMatchObject({ type: 'review.new', vendor: 'aurora' });
    expect(shown[0]!.payload).toContain(
      '&quot;title&quot;: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;',
    );
    expect(html).not.toContain('<script>alert(1)');
    // The payload is the event's data, indented.
    const escaped = (text: string) =>
      text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
    expect(shown[1]!.payload).toBe(escaped(JSON.stringify(all.at(-2)!.data, null, 2)));
    expect(shown[1]!.payload).toContain('&quot;new_score&quot;: 61');
  });

  it('paged by seq: "Older" continues where the page ended, without gaps or repeats, to the end', async () => {
    const all = await f.ctx.container.operator.events({ limit: 1000 });
    const seen: number[] = [];
    let url: string | null = '/console/events';
    let pagesRead = 0;
    while (url) {
      const html = expectPage(await p.get(url, operator));
      seen.push(...rows(html).map((r) => r.seq));
      url = olderLink(html);
      if (++pagesRead > 1) expect(html).toContain('>Newest</a>');
      expect(pagesRead).toBeLessThan(10);
    }
    expect(seen).toEqual(all.map((e) => e.seq).reverse());
  });

  it('filtered by type and vendor, the filters kept when paging', async () => {
    const truth = async (q: { type?: 'score.changed' | 'review.new'; vendorSlug?: string }) =>
      (await f.ctx.container.operator.events({ limit: 1000, ...q })).map((e) => e.seq).reverse();

    const helix = await truth({ type: 'score.changed', vendorSlug: 'helix' });
    expect(helix.length).toBeGreaterThanOrEqual(35);
    const html = expectPage(await p.get('/console/events?type=score.changed&vendor=helix', operator));
    const shown = rows(html);
    expect(shown.map((r) => r.seq)).toEqual(helix.slice(0, 50));
    expect(shown.every((r) => r.type === 'score.changed' && r.vendor === 'helix')).toBe(true);
    expect(html).toMatch(/<option value="score.changed" selected>/);
    expect(html).toContain('value="helix"');

    const reviews = rows(expectPage(await p.get('/console/events?type=review.new', operator)));
    expect(reviews.map((r) => r.type)).toEqual(['review.new']);

    // Every score.changed event, page after page, the type kept in each "Older" link.
    const scores = await truth({ type: 'score.changed' });
    expect(scores.length).toBeGreaterThan(50);
    const seen: number[] = [];
    let url: string | null = '/console/events?type=score.changed';
    while (url) {
      const page = expectPage(await p.get(url, operator));
      const got = rows(page);
      expect(got.every((r) => r.type === 'score.changed')).toBe(true);
      seen.push(...got.map((r) => r.seq));
      url = olderLink(page);
      if (url) expect(url).toMatch(/^\/console\/events\?type=score.changed&before=\d+$/);
    }
    expect(seen).toEqual(scores);

    const aurora = rows(expectPage(await p.get('/console/events?vendor=aurora', operator)));
    expect(aurora.map((r) => r.seq)).toEqual((await truth({ vendorSlug: 'aurora' })).slice(0, 50));
  });

  it('bad filters are the error page; an unknown vendor is the 404 page', async () => {
    for (const url of [
      '/console/events?type=nothing.happened',
      '/console/events?before=abc',
      '/console/events?before=0',
      '/console/events?type=score.changed&type=review.new',
    ]) {
      const res = await p.get(url, operator);
      expect(res.statusCode, url).toBe(400);
    }
    const unknown = await p.get('/console/events?vendor=nobody', operator);
    expect(unknown.statusCode).toBe(404);
    const empty = expectPage(await p.get('/console/events?vendor=acme', operator));
    expect(empty).toContain('No event matches.');
  });
});
