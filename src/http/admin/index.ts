import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.ts';
import { adminGuard, importRoute } from './import-route.ts';

export const ADMIN_PREFIX = '/admin/v1';

/** The operator API. Registered only when PURERANK_ADMIN_TOKEN is set. */
export function adminApi(services: AppServices, token: string) {
  return async function plugin(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', adminGuard(token));
    importRoute(app, services);
  };
}
