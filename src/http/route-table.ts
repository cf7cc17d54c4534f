import type { FastifyInstance, RouteOptions } from 'fastify';

interface Known {
  method: string;
  pattern: RegExp;
}

/** `/v1/vendors/:slug` → a regular expression a concrete path matches (a parameter is one non-empty segment). */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) =>
      part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Every route the service declared, by method and pattern, so an answer about a path that has no
 * route can help: which methods the path does take (405 with `Allow`) and whether it exists under
 * the other variant's prefix (decision 0017, "Unknown routes").
 */
export class RouteTable {
  private readonly known: Known[] = [];

  /** Call before any route is registered. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) this.known.push({ method, pattern: patternOf(route.url) });
    });
  }

  /** The methods a concrete path has routes for, in declaration order; empty when it has none. */
  methodsAt(path: string): string[] {
    const out: string[] = [];
    for (const k of this.known) if (k.pattern.test(path) && !out.includes(k.method)) out.push(k.method);
    return out;
  }
}
