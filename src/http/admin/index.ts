import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.ts';
import { adminGuard, importRoute } from './import-route.ts';
import { accountRoutes } from './routes/accounts.ts';
import { batchRoutes } from './routes/batches.ts';
import { overrideRoutes } from './routes/overrides.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { scoreAndEventRoutes } from './routes/scores-events.ts';
import { userRoutes } from './routes/users.ts';
import { vendorRoutes } from './routes/vendors.ts';

export const ADMIN_PREFIX = '/admin/v1';

/**
 * The operator API (docs/operator-api.md). Registered only when PURERANK_ADMIN_TOKEN is set;
 * every route is behind the admin token. Routes parse, call one operator use case, and present.
 */
export function adminApi(services: AppServices, token: string) {
  return async function plugin(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', adminGuard(token));
    importRoute(app, services);
    accountRoutes(app, services);
    vendorRoutes(app, services);
    overrideRoutes(app, services);
    reviewRoutes(app, services);
    batchRoutes(app, services);
    scoreAndEventRoutes(app, services);
    userRoutes(app, services);
  };
}
