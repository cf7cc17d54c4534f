import type { FastifyInstance } from 'fastify';
import { DomainError } from '../core/errors.ts';

/**
 * JSON request bodies are decoded as strict UTF-8: bytes that are not UTF-8 are a 400 naming the
 * problem, never silently turned into U+FFFD and stored (the same rule as the import, decision 0008).
 * The text then goes to Fastify's own JSON parser, which keeps its guards (`__proto__` and
 * `constructor.prototype` refused, the body limit applied before any of this runs).
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
    parseJson(request, text, done);
  });
}
