import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../src/config/config.ts';
import { ADMIN_TOKEN } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { coa } from '../coa/fixtures.ts';
import { multipart, type Part } from '../coa/form.ts';
import {
  type Dashboard,
  expectCleanMarkup,
  expectHtml,
  expectPage,
  expectRedirect,
  noticeOf,
  type SignedInUser,
  setupDashboard,
} from './dashboard-fixture.ts';

/** A small limit so the refusals of a large file are quick to reach (the API's own rules). */
const MAX_BYTES = 200_000;

describe.each(DIALECTS)('dashboard: CoA verifications (%s)', (dialect) => {
  let d: Dashboard;
  let acme: number;
  let verifiedPdf: Uint8Array;

  beforeAll(async () => {
    d = await setupDashboard(dialect, { config: { coa: { ...DEFAULTS.coa, maxBytes: MAX_BYTES } } });
    acme = await d.accountId('acme');
    verifiedPdf = await coa({ batch: 'NW-1001', compound: 'BPC-157', purity: 99.2 });
  });
  afterAll(async () => d?.close());

  /** The upload form as a browser sends it: `_csrf` first, then the fields in the page's order, then the file. */
  const form = (who: SignedInUser, fields: Record<string, string>, file: Uint8Array | null): Part[] => [
    { name: '_csrf', value: who.csrf },
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    file === null
      ? { name: 'file', filename: '', data: new Uint8Array(), contentType: 'application/octet-stream' }
      : { name: 'file', filename: 'coa.pdf', data: file },
  ];

  const upload = (
    who: SignedInUser,
    parts: Part[],
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> => {
    const { body, contentType } = multipart(parts);
    return d.ctx.app.inject({
      method: 'POST',
      url: '/dashboard/coa',
      headers: {
        'content-type': contentType,
        host: 'localhost:80',
        origin: 'http://localhost:80',
        cookie: who.cookie,
        ...headers,
      },
      payload: body,
    });
  };
  const stored = async (accountId = acme) =>
    (await d.ctx.container.coa.list(accountId, { limit: 100, offset: 0 })).total;

  it('renders the upload form (_csrf first, multipart) and an empty list', async () => {
    const html = expectPage(await d.p.get('/dashboard/coa', d.owner));
    expectCleanMarkup(html);
    expect(html).toMatch(
      /<form method="post" action="\/dashboard\/coa" enctype="multipart\/form-data"[^>]*>\s*<input type="hidden" name="_csrf"/,
    );
    expect(html).toContain('No upload yet.');
  });

  let verifiedId = '';
  it('a generated PDF goes through: verified, with its fields, notes and the lab link; listed', async () => {
    const res = await upload(
      d.owner,
      form(d.owner, { peptide: 'BPC157', batch_id: 'nw-1001', vendor: 'aurora' }, verifiedPdf),
    );
    const location = expectRedirect(res, /^\/dashboard\/coa\/ver_[0-9a-f]{32}\?uploaded=1$/);
    verifiedId = location.split('/').at(-1)!.split('?')[0]!;
    const html = expectPage(await d.p.get(location, d.owner));
    expectCleanMarkup(html);
    expect(noticeOf(html)).toBe('Uploaded and read: an approved record on file corroborates it.');
    expect(html).toContain('<span class="badge verified">verified</span>');
    expect(html).toContain(
      '<a href="https://verify.northwind-labs.example/coa?code=NWA-7K2P-91QX" rel="noopener noreferrer" target="_blank">',
    );
    expect(html).toContain('<dt>Lab</dt><dd>Northwind Analytical Laboratories</dd>');
    expect(html).toContain('<code>record_corroborates</code>');
    const list = expectPage(await d.p.get('/dashboard/coa', d.member));
    expect(list).toContain(`href="/dashboard/coa/${verifiedId}"`);
    expect(list).toContain('<td>bpc-157</td>');
    expect(list).toContain('<td>nw-1001</td>');
    expect(await stored()).toBe(1);
  });

  it('empty optional fields (as a browser sends them) are left out; a pending review shows its decision once made', async () => {
    const pdf = await coa({
      batch: 'SEM-7',
      compound: 'Semaglutide',
      purity: 99.3,
      verificationKey: 'NWA-SEM-7',
    });
    const res = await upload(
      d.member,
      form(d.member, { peptide: 'semaglutide', batch_id: '', vendor: 'aurora' }, pdf),
    );
    const location = expectRedirect(res, /^\/dashboard\/coa\/ver_/);
    const pending = expectPage(await d.p.get(location, d.owner));
    expect(pending).toContain('<span class="badge pending_review">pending review</span>');
    // The notice says what happened, not "verified" (found by the newcomer).
    expect(noticeOf(pending)).toBe(
      'Uploaded and read: nothing on file corroborates it yet, so it waits for an operator’s review.',
    );
    const approved = await d.ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/vendors/aurora/batches/SEM-7/approve',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const list = expectPage(await d.p.get('/dashboard/coa', d.owner));
    const row = list.split('<tr>').find((r) => r.includes(location.split('?')[0]!))!;
    expect(row).toContain('<span class="badge verified">verified</span>');
    expect(row).toContain('review: approved');
  });

  it('the form token is checked before the file is read: missing, wrong, or not first is 403 and nothing is stored', async () => {
    const before = await stored();
    const fields = { peptide: 'bpc-157' };
    const cases: Part[][] = [
      form(d.owner, fields, verifiedPdf).slice(1),
      [{ name: '_csrf', value: d.otherOwner.csrf }, ...form(d.owner, fields, verifiedPdf).slice(1)],
      [...form(d.owner, fields, verifiedPdf).slice(1), { name: '_csrf', value: d.owner.csrf }],
      [
        { name: 'file', filename: 'coa.pdf', data: verifiedPdf },
        { name: '_csrf', value: d.owner.csrf },
        { name: 'peptide', value: 'bpc-157' },
      ],
    ];
    for (const parts of cases) {
      const res = await upload(d.owner, parts);
      expectHtml(res, 403);
      expect(noticeOf(res.body)).toMatch(/out of date/);
    }
    const cross = await upload(d.owner, form(d.owner, fields, verifiedPdf), {
      origin: 'https://evil.example',
    });
    expectHtml(cross, 403);
    expect(noticeOf(cross.body)).toMatch(/another site/);
    expect(await stored()).toBe(before);
  });

  it('a missing field is 400 naming it, not a PDF is 415, too large is 413; nothing is stored', async () => {
    const before = await stored();
    const noPeptide = await upload(d.owner, form(d.owner, { peptide: '' }, verifiedPdf));
    expectHtml(noPeptide, 400);
    expect(noticeOf(noPeptide.body)).toContain("Parameter 'peptide' is required");
    const noFile = await upload(d.owner, form(d.owner, { peptide: 'bpc-157' }, null));
    expectHtml(noFile, 400);
    expect(noticeOf(noFile.body)).toContain("Parameter 'file' is required");
    const text = await upload(
      d.owner,
      form(d.owner, { peptide: 'bpc-157' }, new TextEncoder().encode('just text, no PDF')),
    );
    expectHtml(text, 415);
    expect(noticeOf(text.body)).toContain('not a PDF');
    // Past the limit while it streams (the Content-Length is within the form's allowance)…
    const big = new Uint8Array(MAX_BYTES + 10_000).fill(32);
    big.set(new TextEncoder().encode('%PDF-1.7\n'));
    const large = await upload(d.owner, form(d.owner, { peptide: 'bpc-157' }, big));
    expectHtml(large, 413);
    expect(noticeOf(large.body)).toContain(`larger than the limit of ${MAX_BYTES} bytes`);
    // …and refused before the body is read when the Content-Length says so.
    const huge = new Uint8Array(MAX_BYTES * 2).fill(32);
    huge.set(new TextEncoder().encode('%PDF-1.7\n'));
    expectHtml(await upload(d.owner, form(d.owner, { peptide: 'bpc-157' }, huge)), 413);
    const unknown = await upload(d.owner, form(d.owner, { peptide: 'no-such-peptide' }, verifiedPdf));
    expectHtml(unknown, 400);
    expect(noticeOf(unknown.body)).toContain("'peptide'");
    expect(await stored()).toBe(before);
  });

  it("another account's upload is 404, and its list shows none of acme's", async () => {
    expectHtml(await d.p.get(`/dashboard/coa/${verifiedId}`, d.otherOwner), 404);
    expectHtml(await d.p.get('/dashboard/coa/ver_nothing', d.owner), 404);
    const theirs = expectPage(await d.p.get('/dashboard/coa', d.otherOwner));
    expect(theirs).toContain('No upload yet.');
    expect(theirs).not.toContain(verifiedId);
  });

  it('free and pro accounts see what Enterprise unlocks; an upload is refused and nothing is stored', async () => {
    for (const [who, name] of [
      [d.freeOwner, 'freebie'],
      [d.proOwner, 'procorp'],
    ] as const) {
      const html = expectPage(await d.p.get('/dashboard/coa', who));
      expectCleanMarkup(html);
      expect(html).toContain('CoA verifications come with the Enterprise plan');
      expect(html).not.toContain('enctype="multipart/form-data"');
      expectHtml(await upload(who, form(who, { peptide: 'bpc-157' }, verifiedPdf)), 403);
      expect(await stored(await d.accountId(name))).toBe(0);
    }
    expectHtml(await d.p.get(`/dashboard/coa/${verifiedId}`, d.proOwner), 403);
  });
});
