import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, setupCoa } from '../coa/fixtures.ts';
import {
  expectCleanMarkup,
  expectPage,
  expectRedirect,
  formFields,
  noticeOf,
  type Pages,
  pages,
  type SignedInUser,
  signIn,
} from './console-fixture.ts';

const OPERATOR = 'pinner@example.com';

/** The cells of the pillars table's row for one pillar: [computed, effective, override]. */
function pillarRow(html: string, pillar: string): string[] {
  const table = /<h2>Pillars<\/h2>([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  const row = new RegExp(`<th scope="row">${pillar}</th>([\\s\\S]*?)</tr>`).exec(table)?.[1] ?? '';
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.trim());
}

/**
 * Vendors in the console: search by name or slug (scored and unscored vendors); a vendor's
 * computed and effective pillars side by side; an override set and cleared through the same use
 * case as `purerank overrides`, moving the effective pillar and the score Variant B serves, listed
 * with who (the operator's email), when and why.
 */
describe.each(DIALECTS)('console vendors and overrides (%s)', (dialect) => {
  let f: CoaFixture;
  let p: Pages;
  let operator: SignedInUser;

  beforeAll(async () => {
    f = await setupCoa(dialect);
    p = pages(f.ctx);
    operator = await signIn(f.ctx, OPERATOR, { role: 'operator' });
  });
  afterAll(async () => f?.ctx.close());

  const bScore = async (slug: string): Promise<number | null> => {
    const res = await f.ctx.app.inject({ url: `/api/v1/vendors/${slug}`, headers: bearer(f.key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.score;
  };

  it('search finds vendors by name or slug, ignoring case, scored ones with their score', async () => {
    const all = expectPage(await p.get('/console/vendors', operator));
    expectCleanMarkup(all);
    expect(all).toContain('of 3:');
    for (const name of ['Aurora Peptide Works', 'Helix Research Supply', 'Acme Peptides']) {
      expect(all).toContain(name);
    }
    const aurora = (await f.ctx.container.operator.vendor('aurora')).score;
    expect(aurora).not.toBeNull();
    expect(all).toMatch(
      new RegExp(
        `href="/console/vendors/aurora">Aurora Peptide Works</a></td>\\s*<td class="mono">aurora</td>\\s*<td class="num">${aurora}</td>`,
      ),
    );

    const byName = expectPage(await p.get('/console/vendors?q=RESEARCH', operator));
    expect(byName).toContain('Helix Research Supply');
    expect(byName).not.toContain('Aurora Peptide Works');
    expect(byName).toContain('value="RESEARCH"');
    const bySlug = expectPage(await p.get('/console/vendors?q=acm', operator));
    expect(bySlug).toContain('Acme Peptides');
    expect(bySlug).not.toContain('Helix Research Supply');
    const none = expectPage(await p.get(`/console/vendors?q=${encodeURIComponent('<zz>')}`, operator));
    expect(none).toContain('No vendor has that in its name or slug.');
    expect(none).toContain('&lt;zz&gt;');
    expect(none).not.toContain('<zz>');

    const tooLong = await p.get(`/console/vendors?q=${'x'.repeat(201)}`, operator);
    expect(tooLong.statusCode).toBe(400);
    const badOffset = await p.get('/console/vendors?offset=-1', operator);
    expect(badOffset.statusCode).toBe(400);
    const twice = await p.get('/console/vendors?q=a&q=b', operator);
    expect(twice.statusCode).toBe(400);
  });

  it("a vendor's page shows computed and effective pillars side by side", async () => {
    const v = await f.ctx.container.operator.vendor('aurora');
    const html = expectPage(await p.get('/console/vendors/aurora', operator));
    expectCleanMarkup(html);
    expect(html).toContain('<h1>Aurora Peptide Works</h1>');
    for (const pillar of ['coa', 'purity', 'sentiment', 'transparency', 'experience'] as const) {
      const [computed, effective, override] = pillarRow(html, pillar);
      expect(computed).toBe(String(v.computed[pillar] ?? '—'));
      expect(effective).toBe(String(v.pillars?.[pillar] ?? '—'));
      expect(override).toBe('');
    }
    expect(html).toContain('No override: every pillar is as computed.');
    // The composite row's computed cell is what the pillars give (unpinned: the score itself).
    expect(pillarRow(html, 'score')[0]).toBe(String(v.score));
  });

  it('setting an override moves the effective pillar and the score, listed with who, when and why', async () => {
    const before = await f.ctx.container.operator.vendor('aurora');
    const bBefore = await bScore('aurora');
    const form = formFields(
      expectPage(await p.get('/console/vendors/aurora', operator)),
      '/console/vendors/aurora/overrides',
    );
    const target = before.computed.coa === 0 ? 100 : 0;
    f.ctx.clock.set(f.ctx.clock.now() + 60_000);
    const res = await p.post('/console/vendors/aurora/overrides', operator, {
      ...form,
      field: 'coa',
      value: String(target),
      reason: 'Lab <confirmed> the reports were forged',
    });
    const location = expectRedirect(res, /^\/console\/vendors\/aurora\?done=set&field=coa/);

    const after = await f.ctx.container.operator.vendor('aurora');
    expect(after.pillars?.coa).toBe(target);
    expect(after.computed.coa).toBe(before.computed.coa);
    expect(after.score).not.toBe(before.score);
    expect(await bScore('aurora')).toBe(after.score);
    expect(bBefore).toBe(before.score);
    expect(after.overrides).toEqual([
      {
        vendorSlug: 'aurora',
        field: 'coa',
        value: target,
        reason: 'Lab <confirmed> the reports were forged',
        setBy: OPERATOR,
        setAt: new Date(f.ctx.clock.now()).toISOString(),
      },
    ]);

    const html = expectPage(await p.get(location, operator));
    expectCleanMarkup(html);
    expect(noticeOf(html)).toContain('Override of coa set');
    expect(noticeOf(html)).toContain(`Score ${before.score} → ${after.score}`);
    expect(pillarRow(html, 'coa')).toEqual([String(before.computed.coa), String(target), String(target)]);
    // Who, when and why, escaped.
    const overrides = /<h2>Overrides<\/h2>([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
    expect(overrides).toContain(OPERATOR);
    expect(overrides).toContain(new Date(f.ctx.clock.now()).toISOString().slice(0, 16).replace('T', ' '));
    expect(overrides).toContain('Lab &lt;confirmed&gt; the reports were forged');
    expect(html).toContain('data-confirm="Clear the coa override of Aurora Peptide Works?"');
    // The score history names the operator.
    expect(after.history.at(-1)?.reason).toBe(`override coa by ${OPERATOR}`);
  });

  it('bad override input is the error page and changes nothing', async () => {
    const before = await f.ctx.container.operator.vendor('aurora');
    for (const [fields, status, expected] of [
      [
        { field: 'coa', value: '101', reason: 'x' },
        400,
        /Parameter 'value' must be a whole number from 0 to 100/,
      ],
      [{ field: 'coa', value: '5.5', reason: 'x' }, 400, /Parameter 'value'/],
      [{ field: 'coa', value: '', reason: 'x' }, 400, /Parameter 'value' is required/],
      [{ field: 'charm', value: '5', reason: 'x' }, 400, /Parameter 'field' must be one of/],
      [{ field: 'coa', value: '5', reason: ' ' }, 400, /Parameter 'reason' is required/],
      [{ field: 'coa', value: '5', reason: 'y'.repeat(501) }, 400, /Parameter 'reason' must be at most 500/],
    ] as const) {
      const res = await p.post('/console/vendors/aurora/overrides', operator, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(status);
      expect(noticeOf(res.body)).toMatch(expected);
    }
    const unknown = await p.post('/console/vendors/nobody/overrides', operator, {
      field: 'coa',
      value: '5',
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    const noSuchOverride = await p.post('/console/vendors/aurora/overrides/sentiment/clear', operator, {
      reason: 'x',
    });
    expect(noSuchOverride.statusCode).toBe(404);
    expect(noticeOf(noSuchOverride.body)).toMatch(/has no 'sentiment' override/);
    const clearNoReason = await p.post('/console/vendors/aurora/overrides/coa/clear', operator, {
      reason: '',
    });
    expect(clearNoReason.statusCode).toBe(400);
    expect(await f.ctx.container.operator.vendor('aurora')).toEqual(before);
  });

  it('clearing an override (with a reason) brings the computed value back', async () => {
    const before = await f.ctx.container.operator.vendor('aurora');
    const html = expectPage(await p.get('/console/vendors/aurora', operator));
    const form = formFields(html, '/console/vendors/aurora/overrides/coa/clear');
    const res = await p.post('/console/vendors/aurora/overrides/coa/clear', operator, {
      ...form,
      reason: 'Lab withdrew the claim',
    });
    const location = expectRedirect(res, /^\/console\/vendors\/aurora\?done=cleared&field=coa/);
    const after = await f.ctx.container.operator.vendor('aurora');
    expect(after.overrides).toEqual([]);
    expect(after.pillars?.coa).toBe(after.computed.coa);
    expect(after.score).not.toBe(before.score);
    expect(await bScore('aurora')).toBe(after.score);
    expect(after.history.at(-1)?.reason).toBe(`override coa cleared by ${OPERATOR}`);
    const page = expectPage(await p.get(location, operator));
    expect(noticeOf(page)).toContain('Override of coa cleared');
    expect(page).toContain('No override: every pillar is as computed.');

    // The override is gone, but the vendor's decisions keep who cleared it, when and why, and
    // what it was (escaped).
    const [cleared, set] = await f.ctx.container.operator.actions({ vendorSlug: 'aurora', limit: 2 });
    expect(cleared).toMatchObject({
      action: 'override.cleared',
      actor: OPERATOR,
      reason: 'Lab withdrew the claim',
    });
    expect(set).toMatchObject({ action: 'override.set', reason: 'Lab <confirmed> the reports were forged' });
    expectCleanMarkup(page);
    const decisions = sectionOf(page, 'Decisions');
    expect(decisions.indexOf('override.cleared')).toBeLessThan(decisions.indexOf('override.set'));
    expect(decisions).toContain('Lab withdrew the claim');
    expect(decisions).toContain(
      `Cleared the coa override of ${before.overrides[0]!.value} (set by ${OPERATOR}: Lab &lt;confirmed&gt; the reports were forged)`,
    );
    expect(decisions).toContain(cleared!.at.slice(0, 16).replace('T', ' '));
    expect(decisions).toMatch(new RegExp(`score ${before.score} → ${after.score}`));
  });

  it('an operator whose email is as long as an address may be (254) sets an override under it', async () => {
    const email = `${'o'.repeat(64)}@${'p'.repeat(60)}.${'q'.repeat(60)}.${'r'.repeat(63)}.com`;
    expect(email).toHaveLength(254);
    const long = await signIn(f.ctx, email, { role: 'operator' });
    const res = await p.post('/console/vendors/helix/overrides', long, {
      field: 'sentiment',
      value: '30',
      reason: 'long address',
    });
    expectRedirect(res, /^\/console\/vendors\/helix\?done=set&field=sentiment/);
    const v = await f.ctx.container.operator.vendor('helix');
    expect(v.overrides.find((o) => o.field === 'sentiment')?.setBy).toBe(email);
    const cleared = await p.post('/console/vendors/helix/overrides/sentiment/clear', long, {
      reason: 'done',
    });
    expectRedirect(cleared, /done=cleared/);
    const log = await f.ctx.container.operator.actions({
      vendorSlug: 'helix',
      subject: 'sentiment',
      limit: 5,
    });
    expect(log.map((a) => [a.action, a.actor, a.reason])).toEqual([
      ['override.cleared', email, 'done'],
      ['override.set', email, 'long address'],
    ]);
  });
});

/** The markup after an h2 up to the next h2 (or the end). */
function sectionOf(html: string, heading: string): string {
  const m = new RegExp(`<h2>${heading}</h2>([\\s\\S]*?)(?:<h2\\b|$)`).exec(html);
  expect(m, `a section "${heading}"`).not.toBeNull();
  return m![1]!;
}
