import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Escapes text for an HTML attribute. */
const attr = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Another origin (a second HTTP server on another port of this machine), serving what an attacker's
 * page would: a form that posts itself to the service as soon as it loads. Its pages carry no CSP,
 * so their inline script runs, as an attacker's would.
 */
export interface OtherOrigin {
  /** `http://127.0.0.1:PORT`: same site as the service (another port), another origin. */
  origin: string;
  /** `http://localhost:PORT`: another site altogether (SameSite cookies stay home). */
  otherSite: string;
  /** Registers a page that auto-submits `fields` to `action`; returns its path. */
  autoSubmit(action: string, fields: Record<string, string>): string;
  close(): Promise<void>;
}

export async function startOtherOrigin(): Promise<OtherOrigin> {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const body = pages.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    otherSite: `http://localhost:${port}`,
    autoSubmit(action, fields) {
      const path = `/page-${pages.size + 1}`;
      const inputs = Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${attr(name)}" value="${attr(value)}">`)
        .join('');
      pages.set(
        path,
        `<!doctype html><title>Win a prize</title><form method="post" action="${attr(action)}">${inputs}</form>` +
          '<script>document.forms[0].submit()</script>',
      );
      return path;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
