import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { coa } from '../coa/fixtures.ts';
import { type McpFixture, setupMcp } from './fixtures.ts';

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

const structured = (r: ToolResult): Record<string, unknown> => {
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
};

/** A tool's error result: the REST error body as its text. */
const toolError = (r: ToolResult) => {
  expect(r.isError).toBe(true);
  const [first] = r.content as { type: string; text: string }[];
  return (JSON.parse(first!.text) as { error: { code: string; message: string; status: number } }).error;
};

describe.each(DIALECTS)('/mcp: tools over the SDK client (%s)', (dialect) => {
  let f: McpFixture;
  let client: Client;
  beforeAll(async () => {
    f = await setupMcp(dialect);
    // A batch whose CoA is published at the lab: lookup_batch hands its link on.
    const loaded = await f.ctx.load([
      {
        type: 'batch',
        vendorSlug: 'acme',
        batchId: 'AC-7007',
        peptideSlug: 'semaglutide',
        purity: 98.9,
        lab: 'meridian',
        testMethod: 'HPLC',
        testedAt: '2026-03-12T00:00:00.000Z',
        sourceUrl: 'https://meridian-testing.example/verify?lot=AC-7007',
        status: 'approved',
      },
    ]);
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    client = await f.connect();
  });
  afterAll(async () => f?.ctx.close());

  it('initializes as purerank and lists the seven tools, each with input and output schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('purerank');
    // The lists never change and a stateless endpoint has no stream to announce a change on: the
    // initialize result promises no list_changed notifications and no resource subscriptions.
    const caps = client.getServerCapabilities();
    expect(caps?.tools).toEqual({ listChanged: false });
    expect(caps?.resources).toEqual({ listChanged: false });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'explain_score',
      'get_prices',
      'get_vendor',
      'lookup_batch',
      'rank_vendors',
      'search',
      'verify_coa',
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
    }
  });

  it('search: typo-tolerant, vendors and peptides', async () => {
    const out = structured(await client.callTool({ name: 'search', arguments: { query: 'auroar' } }));
    expect((out.vendors as { slug: string }[]).map((v) => v.slug)).toEqual(['aurora']);
    const pep = structured(await client.callTool({ name: 'search', arguments: { query: 'bpc157' } }));
    expect((pep.peptides as { slug: string }[])[0]).toMatchObject({ slug: 'bpc-157', vendor_count: 1 });
    // vendor_count is the ranking's length: helix is not verified, so only aurora is ranked.
  });

  it('get_vendor: the Variant A report, identical to GET /v1/vendors/{slug}', async () => {
    const out = structured(await client.callTool({ name: 'get_vendor', arguments: { vendor: 'aurora' } }));
    const rest = await f.ctx.app.inject({
      url: '/v1/vendors/aurora',
      headers: { authorization: `Bearer ${f.key}` },
    });
    expect(out).toEqual(rest.json());
    expect(out).toMatchObject({ slug: 'aurora', verified: true, coa_count: 3 });
    expect((out.recent_coas as unknown[]).length).toBe(3);
  });

  it('get_vendor: an unknown vendor is a tool error with the REST not_found body', async () => {
    const e = toolError(await client.callTool({ name: 'get_vendor', arguments: { vendor: 'nobody' } }));
    expect(e).toMatchObject({ code: 'not_found', status: 404, message: "Vendor 'nobody' does not exist." });
  });

  it('rank_vendors: overall, and for one peptide (as /v1/peptides/{slug}/vendors ranks it)', async () => {
    const all = structured(await client.callTool({ name: 'rank_vendors', arguments: {} }));
    expect(all.peptide).toBeNull();
    const rest = (
      await f.ctx.app.inject({ url: '/v1/vendors', headers: { authorization: `Bearer ${f.key}` } })
    ).json() as { data: { slug: string }[]; total: number };
    expect(all.total).toBe(rest.total);
    expect((all.vendors as { slug: string; rank: number }[]).map((v) => [v.rank, v.slug])).toEqual(
      rest.data.map((v, i) => [i + 1, v.slug]),
    );
    const one = structured(
      await client.callTool({ name: 'rank_vendors', arguments: { peptide: 'bpc-157' } }),
    );
    const restOne = (
      await f.ctx.app.inject({
        url: '/v1/peptides/bpc-157/vendors',
        headers: { authorization: `Bearer ${f.key}` },
      })
    ).json() as { vendors: unknown[] };
    expect(one).toEqual({ peptide: 'bpc-157', total: restOne.vendors.length, vendors: restOne.vendors });
    const e = toolError(await client.callTool({ name: 'rank_vendors', arguments: { peptide: 'nope' } }));
    expect(e.code).toBe('not_found');
  });

  it("get_prices: the merged table and today's statistics, identical to Variant B", async () => {
    const out = structured(await client.callTool({ name: 'get_prices', arguments: { peptide: 'bpc-157' } }));
    const rest = async (path: string) =>
      (
        await f.ctx.app.inject({
          url: `/api/v1/peptides/bpc-157/${path}`,
          headers: { authorization: `Bearer ${f.key}` },
        })
      ).json() as { data: Record<string, unknown>; data_updated_at: string };
    const table = await rest('prices');
    const stats = await rest('price-stats');
    expect(out).toEqual({ ...table, data: { ...table.data, stats: stats.data.stats } });
    // helix (unverified) $11/mg is the cheapest in stock; aurora (verified) $12/mg the cheapest verified.
    expect((out.data as { stats: unknown }).stats).toMatchObject({
      cheapestInStock: { vendorSlug: 'helix', perMg: 11 },
      cheapestVerified: { vendorSlug: 'aurora', perMg: 12 },
      p25: 11.25,
      median: 11.5,
      p75: 11.75,
      vendorCount: 2,
    });
    // helix $11/mg before aurora $12/mg.
    const data = out.data as { prices: { vendorSlug: string; perMg: number }[] };
    expect(data.prices.map((p) => [p.vendorSlug, p.perMg])).toEqual([
      ['helix', 11],
      ['aurora', 12],
    ]);
  });

  it("get_prices with history_days: one point per UTC day as Variant B's price history; out of range refused", async () => {
    const out = structured(
      await client.callTool({ name: 'get_prices', arguments: { peptide: 'bpc-157', history_days: 12 } }),
    );
    const rest = (
      await f.ctx.app.inject({
        url: '/api/v1/peptides/bpc-157/price-history?days=12',
        headers: { authorization: `Bearer ${f.key}` },
      })
    ).json() as { data: { points: { cheapestInStock: unknown }[] } };
    const data = out.data as { history: unknown[]; stats: unknown };
    expect(data.history).toEqual(rest.data.points);
    expect(data.stats).toEqual(rest.data.points.at(-1));
    // Listed ten days ago: the first of the twelve days has nothing.
    expect(rest.data.points[0]!.cheapestInStock).toBeNull();
    expect(rest.data.points[1]!.cheapestInStock).not.toBeNull();
    const refused = await client
      .callTool({ name: 'get_prices', arguments: { peptide: 'bpc-157', history_days: 366 } })
      .then(
        () => null,
        (err: unknown) => err as { code: number; data: { code: string; message: string } },
      );
    expect(refused?.code).toBe(-32602);
    expect(refused?.data).toMatchObject({ code: 'invalid_parameter' });
    expect(refused?.data.message).toMatch(/^Parameter 'history_days' is invalid/);
  });

  it('lookup_batch: verified with the lab link, pending, missing; an unknown vendor is not_found', async () => {
    const v = structured(await client.callTool({ name: 'lookup_batch', arguments: { batch_id: 'ac-7007' } }));
    expect(v.data).toMatchObject({
      state: 'verified',
      batchId: 'AC-7007',
      vendorSlug: 'acme',
      lab: 'Meridian Peptide Testing, Inc.',
      sourceUrl: 'https://meridian-testing.example/verify?lot=AC-7007',
    });
    const rest = await f.ctx.app.inject({
      url: '/api/v1/batches/ac-7007',
      headers: { authorization: `Bearer ${f.key}` },
    });
    expect(v).toEqual(rest.json());
    const p = structured(await client.callTool({ name: 'lookup_batch', arguments: { batch_id: 'HX-4004' } }));
    expect(p.data).toMatchObject({ state: 'pending', vendorSlug: 'helix' });
    const m = structured(await client.callTool({ name: 'lookup_batch', arguments: { batch_id: 'ZZ-1' } }));
    expect(m.data).toEqual({ state: 'missing', batchId: 'ZZ-1' });
    const e = toolError(
      await client.callTool({ name: 'lookup_batch', arguments: { batch_id: 'NW-1001', vendor: 'nobody' } }),
    );
    expect(e.code).toBe('not_found');
  });

  it('explain_score: pillars, weights and points that add up to the composite', async () => {
    const out = structured(await client.callTool({ name: 'explain_score', arguments: { vendor: 'aurora' } }));
    const parts = out.parts as {
      pillar: string;
      value: number;
      weight: number;
      computed: number | null;
      points: number;
      how: string;
    }[];
    expect(parts.map((p) => [p.pillar, p.weight])).toEqual([
      ['coa', 0.3],
      ['purity', 0.25],
      ['sentiment', 0.15],
      ['transparency', 0.15],
      ['experience', 0.15],
    ]);
    const sum = parts.reduce((s, p) => s + p.points, 0);
    expect(out.composite).toBe(Math.floor(sum + 0.5 + 1e-9));
    expect(out.score).toBe(out.composite);
    expect(out.score_pinned).toBe(false);
    expect(parts[0]!.how).toContain('150 days');
    const report = (
      await f.ctx.app.inject({ url: '/v1/vendors/aurora', headers: { authorization: `Bearer ${f.key}` } })
    ).json() as { score: number };
    expect(out.score).toBe(report.score);
    // The engine's inputs: aurora's three approved batches, none with a public link; the score
    // recomputed from them now is the published one (nothing has aged since the import at T0).
    expect(out.evidence).toMatchObject({ approved_batches: 3, with_source_url: 0, reviews: 0 });
    expect(out.recomputed_score).toBe(out.score);
    expect(parts.every((p) => p.computed === p.value)).toBe(true);
  });

  it('explain_score: an override wins over the evidence, and says so', async () => {
    const loaded = await f.ctx.load([
      { type: 'override', vendorSlug: 'helix', field: 'sentiment', value: 12, reason: 'test' },
    ]);
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    const out = structured(await client.callTool({ name: 'explain_score', arguments: { vendor: 'helix' } }));
    expect(out.overrides).toEqual({ sentiment: 12 });
    const sentiment = (
      out.parts as { pillar: string; value: number; computed: number; override: number }[]
    ).find((p) => p.pillar === 'sentiment');
    // No reviews: the prior alone, 3.5 stars → (3.5 − 1) / 4 × 100 = 62.5 → 63.
    expect(sentiment).toMatchObject({ value: 12, computed: 63, override: 12 });
    expect(out.score_pinned).toBe(false);
    expect(out.score).toBe(out.composite);
  });

  it('verify_coa: a base64 PDF through the same verifier as POST /v1/coa/verify', async () => {
    const pdf = await coa({ batch: 'NW-1001', compound: 'BPC-157', purity: 99.2 });
    const out = structured(
      await client.callTool({
        name: 'verify_coa',
        arguments: {
          pdf_base64: Buffer.from(pdf).toString('base64'),
          peptide: 'bpc-157',
          batch_id: 'NW-1001',
          vendor: 'aurora',
        },
      }),
    );
    expect(out).toMatchObject({ status: 'verified', peptide_match: true, purity_verified: true });
    const again = await f.get(out.verification_id as string);
    expect(again.json()).toMatchObject({ verification_id: out.verification_id, status: 'verified' });
    const notPdf = toolError(
      await client.callTool({
        name: 'verify_coa',
        arguments: { pdf_base64: Buffer.from('hello, not a pdf').toString('base64'), peptide: 'bpc-157' },
      }),
    );
    expect(notPdf.code).toBe('unsupported_media_type');
    const blank = toolError(
      await client.callTool({
        name: 'verify_coa',
        arguments: { pdf_base64: Buffer.from(pdf).toString('base64'), peptide: '  ' },
      }),
    );
    expect(blank).toMatchObject({
      code: 'invalid_parameter',
      message: "Parameter 'peptide' must not be empty.",
    });
    const notBase64 = toolError(
      await client.callTool({
        name: 'verify_coa',
        arguments: { pdf_base64: 'JVBE*i0=', peptide: 'bpc-157' },
      }),
    );
    expect(notBase64.code).toBe('invalid_parameter');
  });

  it('the methodology resource is docs/methodology.md', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['purerank://docs/methodology']);
    const read = await client.readResource({ uri: 'purerank://docs/methodology' });
    const [content] = read.contents as { text: string; mimeType: string }[];
    expect(content!.mimeType).toBe('text/markdown');
    expect(content!.text.startsWith('# Scoring methodology')).toBe(true);
  });
});
