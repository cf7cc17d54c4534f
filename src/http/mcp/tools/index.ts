import { explainScoreTool } from './explain-score.ts';
import { getPricesTool } from './get-prices.ts';
import { getVendorTool } from './get-vendor.ts';
import { lookupBatchTool } from './lookup-batch.ts';
import type { McpTool } from './model.ts';
import { rankVendorsTool } from './rank-vendors.ts';
import { searchTool } from './search.ts';
import { verifyCoaTool } from './verify-coa.ts';

/** Every tool `/mcp` offers, by name. */
export const TOOLS: ReadonlyMap<string, McpTool> = new Map(
  [
    searchTool,
    getVendorTool,
    rankVendorsTool,
    getPricesTool,
    lookupBatchTool,
    verifyCoaTool,
    explainScoreTool,
  ].map((t) => [t.name, t]),
);
