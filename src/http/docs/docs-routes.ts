import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
// Resolve the folder only: requiring the package itself would load the 1.5 MB UI bundle into the server.
const UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>PureRank API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

/**
 * /docs: an interactive reference of every published document, served from the swagger-ui-dist
 * package (no CDN: the service works offline). Public: it shows nothing an API key protects.
 */
export function docsRoutes(specs: { name: string; url: string }[]) {
  const init = `window.ui = SwaggerUIBundle({ urls: ${JSON.stringify(specs)}, dom_id: '#ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
  persistAuthorization: true });`;
  return async function plugin(app: FastifyInstance): Promise<void> {
    app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
    app.get('/docs/init.js', async (_req, reply) =>
      reply.type('application/javascript; charset=utf-8').send(init),
    );
    app.get<{ Params: { file: string } }>('/docs/assets/:file', async (req, reply) => {
      const file = req.params.file;
      if (!ASSETS.has(file)) return reply.callNotFound();
      const type = file.endsWith('.css')
        ? 'text/css'
        : file.endsWith('.png')
          ? 'image/png'
          : 'application/javascript';
      reply.header('cache-control', 'public, max-age=86400');
      return reply.type(type).send(await readFile(join(UI_DIR, file)));
    });
  };
}
