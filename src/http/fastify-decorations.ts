import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** See guard.ts refundRate: a 304 is not counted against the rate limit. */
    refundRate(request: FastifyRequest, reply: FastifyReply): void;
    /** Requests answered ahead of the framework (fast-path.ts). */
    fastPath: { served: number };
  }
}

declare module 'fastify' {
  /** Documentation fields read by the OpenAPI collector (openapi/build-document.ts). */
  interface FastifySchema {
    operationId?: string;
    summary?: string;
    description?: string;
    tags?: string[];
    consumes?: string[];
    /** A multipart form the route reads itself (not validated by Fastify): documented only. */
    multipartBody?: unknown;
    /** The route takes no body as well as `body` (documented as `requestBody.required: false`). */
    bodyOptional?: boolean;
  }
}
