import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A serialized response body with its validator. */
export interface CachedBody {
  body: Buffer;
  etag: string;
}

export function toCachedBody(json: string): CachedBody {
  const body = Buffer.from(json);
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, etag };
}

/** RFC 9110 weak comparison against an If-None-Match list (or `*`). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const part of header.split(',')) {
    if (part.trim().replace(/^W\//, '') === opaque) return true;
  }
  return false;
}

/**
 * Sends a JSON body with its ETag, or 304 when the client already has it. A 304 is not counted
 * against the rate limit: the hit taken by the guard is refunded.
 */
export async function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedBody,
): Promise<FastifyReply> {
  reply.header('etag', cached.etag);
  if (matchesIfNoneMatch(request.headers['if-none-match'], cached.etag)) {
    await request.server.refundRate(request, reply);
    return reply.code(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(cached.body);
}

/**
 * Answers from a cached body synchronously (the hot path: no promise), or builds the body first.
 * A route handler returns what this returns.
 */
export function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedBody | undefined,
  build: () => Promise<CachedBody>,
): undefined | Promise<void> {
  if (cached) {
    sendJson(request, reply, cached);
    return undefined;
  }
  return build().then(async (body) => {
    await sendJson(request, reply, body);
  });
}
