import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { EVENT_LOG_DAYS } from '../../../core/webhooks/manage-webhooks.ts';
import { sendJson, toCachedBody } from '../../conditional.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentEventList } from '../present-webhooks.ts';
import { AccountEventListA, EventsQuery } from '../webhook-schemas.ts';
import { WEBHOOKS_PLAN_403 } from './webhooks.ts';

/**
 * GET /events: the account's event log (issue [7]), the events of the vendors it owns with how
 * their deliveries went. Enterprise only, as webhooks are.
 */
export function eventRoutes(app: FastifyInstance, s: AppServices): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/events',
    {
      config: { access: 'enterprise', conditional: true },
      schema: {
        operationId: 'listEvents',
        summary: "The account's events of the last 30 days",
        description:
          `Events about the vendors this account owns, committed in the last ${EVENT_LOG_DAYS} days, newest ` +
          'first, each as its webhooks deliver it (`id`, `type`, `created` in Unix seconds, `data`) with how ' +
          "its messages to this account's endpoints stand (`deliveries`, summed up in `delivery_success`). " +
          'Lists what happened whether or not an endpoint received it: `delivery_success` is null for an ' +
          'event no endpoint got. `delivery_success=false` finds what to `recover` or `redeliver`. ' +
          'Enterprise plan only.',
        tags: ['webhooks'],
        querystring: EventsQuery,
        response: {
          200: AccountEventListA,
          ...commonErrors({
            400: 'Invalid parameter (`invalid_parameter`): the message names it.',
            403: WEBHOOKS_PLAN_403,
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      if (!principal) throw new Error('guard admitted a request without a principal');
      const { type, vendor, delivery_success: success, page, per_page: perPage } = request.query;
      const list = await s.webhooks.events(principal.accountId, {
        ...(type ? { type } : {}),
        ...(vendor ? { vendorSlug: vendor } : {}),
        ...(success ? { deliverySuccess: success === 'true' } : {}),
        limit: perPage,
        offset: Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER),
      });
      return sendJson(request, reply, toCachedBody(JSON.stringify(presentEventList(list, page))));
    },
  );
}
