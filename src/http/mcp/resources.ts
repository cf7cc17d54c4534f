import { readFile } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export const METHODOLOGY_URI = 'purerank://docs/methodology';

/** docs/methodology.md, from src/http/mcp/ or dist/http/mcp/ alike (both three levels below the root). */
const METHODOLOGY_FILE = new URL('../../../docs/methodology.md', import.meta.url);

/** The methodology's text, read once per process (a small file that changes only with a release). */
let methodology: Promise<string> | null = null;
export const methodologyText = (): Promise<string> => {
  methodology ??= readFile(METHODOLOGY_FILE, 'utf8');
  return methodology;
};

/** The resources `/mcp` offers: the scoring methodology. */
export function registerResources(server: McpServer): void {
  server.registerResource(
    'methodology',
    METHODOLOGY_URI,
    {
      title: 'Scoring methodology',
      description: 'How vendor scores are computed: evidence, pillars, weights, overrides, worked examples.',
      mimeType: 'text/markdown',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await methodologyText() }],
    }),
  );
}
