import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdmissionControl } from './admission.ts';
import type { FastPath } from './fast-path.ts';
import type { ResponseCache } from './response-cache.ts';
import type { AppServices } from './services.ts';

/** What a variant's routes share with the app: the services, the response cache and the gate. */
export interface VariantContext {
  services: AppServices;
  cache: ResponseCache;
  admission: AdmissionControl;
  fast: FastPath;
  /** The 404 of an unknown route (errors.ts notFoundHandler), which a variant answers behind its guard. */
  notFound: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

/** More routes for a variant, registered behind its guard (used by tests to declare probe routes). */
export type VariantRoutes = (app: FastifyInstance, ctx: VariantContext) => void;
