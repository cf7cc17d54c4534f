import type { FastifyInstance } from 'fastify';

/**
 * `/llms.txt` (llmstxt.org): what the service is and where its machine-readable parts are, in
 * Markdown for agents that read it before anything else. Every link is a path this service serves
 * (on the host that served the file); what only the source repository has is named as such.
 */
export const LLMS_TXT = `# PureRank

> PureRank scores peptide vendors from lab evidence (certificates of analysis), reviews and
> transparency, and publishes vendor rankings, merged price tables and batch (lot) verification.
> The API (/v1, /api/v1) and /mcp need an API key: \`Authorization: Bearer prk_live_…\`.

The same data and rules are served in two REST variants and over MCP. REST errors are
\`{"error":{"code","message","status","request_id"}}\`; a 429 carries \`Retry-After\`. Over MCP a
refusal is a JSON-RPC error whose \`data\` is that object (the MCP SDK's own protocol errors are bare
JSON-RPC errors). Links below are paths on this host.

## Getting an API key

There is no sign-up: people make keys, for an account on the Pro, Enterprise or custom plan, and
each key is shown once. An agent cannot get one by itself; ask its user for one.

- [Dashboard, API keys](/dashboard/keys): a member of the account (invited by an operator; sign in
  at [/dashboard/sign-in](/dashboard/sign-in)) makes one with Create.
- The service's operator runs \`purerank keys create ACCOUNT\` (or \`POST /admin/v1/accounts/{name}/keys\`).

## REST API

- [Variant A, /v1 (OpenAPI)](/v1/openapi.json): snake_case; vendors, vendor reports, peptides,
  per-peptide rankings, search, CoA verification by upload (Enterprise), webhooks. Limits per UTC hour.
- [Variant B, /api/v1 (OpenAPI)](/api/v1/openapi.json): \`{data, data_updated_at}\` envelopes;
  vendors, vendor detail, peptide price tables, price statistics and daily price history, batch
  lookup. Limits per rolling 24 hours.
- [API reference](/docs): both documents, browsable.

## MCP

- [/mcp](/mcp): the Model Context Protocol over Streamable HTTP (stateless; POST one JSON-RPC
  message with \`Accept: application/json, text/event-stream\`). Same keys as the API (Bearer),
  Variant A's plans and hourly limits; each tools/call of a known tool the plan allows counts one
  request (lists, refusals and unknown tools do not). Tools: search, get_vendor,
  rank_vendors, get_prices, lookup_batch, verify_coa (Enterprise), explain_score.
- Scoring methodology: the MCP resource purerank://docs/methodology (resources/read on /mcp).

## Optional

- Not served by this host, in the PureRank source repository only: docs/mcp.md (connecting an
  agent), docs/methodology.md (the same text as the MCP resource).
`;

export function llmsTxtRoute(app: FastifyInstance): void {
  app.get('/llms.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LLMS_TXT),
  );
}
