import type { FastifyInstance } from 'fastify';
import { DomainError } from '../core/errors.ts';

/**
 * JSON request bodies are decoded as strict UTF-8: bytes that are not UTF-8 are a 400 naming the
 * problem, never silently turned into U+FFFD and stored (the same rule as the import, decision 0008).
 * The text then goes to Fastify's own JSON parser, which keeps its guards (`__proto__` and
 * `constructor.prototype` refused, the body limit applied before any of this runs). An empty body
 * reads as none.
 */
export function registerStrictJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new DomainError('invalid_parameter', 'The request body is not valid UTF-8.'), undefined);
      return;
    }
    // `Content-Type: application/json` with no body (what many clients send for a bodiless POST)
    // is no body: a route whose body is optional takes it, one that needs a body says so.
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
