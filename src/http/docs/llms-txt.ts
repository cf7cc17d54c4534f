import type { FastifyInstance } from 'fastify';

/**
 * `/llms.txt` (llmstxt.org): what the service is and where its machine-readable parts are, in
 * Markdown for agents that read it before anything else. Paths are relative to the host serving it.
 */
export const LLMS_TXT = `# PureRank

> PureRank scores peptide vendors from lab evidence (certificates of analysis), reviews and
> transparency, and publishes vendor rankings, merged price tables and batch (lot) verification.
> Every endpoint but this file, the docs and health needs an API key: \`Authorization: Bearer prk_live_…\`.

The same data and rules are served in two REST variants and over MCP. Errors are always
\`{"error":{"code","message","status","request_id"}}\`; a 429 carries \`Retry-After\`.

## REST API

- [Variant A, /v1 (OpenAPI)](/v1/openapi.json): snake_case; vendors, vendor reports, peptides,
  per-peptide rankings, search, CoA verification by upload (Enterprise), webhooks. Limits per UTC hour.
- [Variant B, /api/v1 (OpenAPI)](/api/v1/openapi.json): \`{data, data_updated_at}\` envelopes;
  vendors, vendor detail, peptide price tables, price statistics and daily price history, batch
  lookup. Limits per rolling 24 hours.
- [API reference](/docs): both documents, browsable.

## MCP

- [/mcp](/mcp): the Model Context Protocol over Streamable HTTP (stateless; POST one JSON-RPC
  message). Same keys as the API (Bearer), Variant A's plans and hourly limits; each tools/call counts
  one request. Tools: search, get_vendor, rank_vendors, get_prices, lookup_batch, verify_coa
  (Enterprise), explain_score. Resource: purerank://docs/methodology.

## Docs

- Scoring methodology: served as the MCP resource purerank://docs/methodology (docs/methodology.md
  in the repository).
- Connecting an agent: docs/mcp.md in the repository.
`;

export function llmsTxtRoute(app: FastifyInstance): void {
  app.get('/llms.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LLMS_TXT),
  );
}
