import type { FastifyInstance } from 'fastify';
import { invalidParameter } from '../../../core/errors.ts';
import type { AppServices } from '../../services.ts';
import { actorOf } from '../operator-header.ts';
import {
  AdminOverrideCleared,
  AdminOverrideList,
  AdminOverrideSet,
  adminErrors,
  ClearOverrideBody,
  ClearOverrideQuery,
  OperatorHeaders,
  OverrideParams,
  OverridesQuery,
  SetOverrideBody,
} from '../schemas.ts';
import { strictJsonBody } from '../strict-body.ts';

/** Operator overrides of a pillar or of the composite, with who, when and why. */
export function overrideRoutes(app: FastifyInstance, s: AppServices): void {
  app.get<{ Querystring: OverridesQuery }>(
    '/overrides',
    {
      schema: {
        operationId: 'listOverrides',
        summary: 'List overrides',
        description:
          'Every override in force, with who set it, when and why. `vendor` narrows to one vendor.',
        tags: ['overrides'],
        querystring: OverridesQuery,
        response: {
          200: AdminOverrideList,
          ...adminErrors({ 404: 'No vendor with that slug (`not_found`).' }),
        },
      },
    },
    async (request) => {
      const { vendor } = request.query;
      // An unknown vendor is 404 rather than an empty list, so a typo does not read as "none".
      if (vendor !== undefined) await s.operator.vendor(vendor);
      return { data: await s.operator.listOverrides(vendor) };
    },
  );

  app.put<{ Params: OverrideParams; Body: SetOverrideBody; Headers: OperatorHeaders }>(
    '/vendors/:slug/overrides/:field',
    {
      schema: {
        operationId: 'setOverride',
        summary: 'Set an override',
        description:
          'Pins a pillar (`coa`, `purity`, `sentiment`, `transparency`, `experience`) or the composite ' +
          '(`score`) to `value`, replacing any override of that field. The response shows the score it moved.',
        tags: ['overrides'],
        params: OverrideParams,
        headers: OperatorHeaders,
        body: SetOverrideBody,
        response: {
          200: AdminOverrideSet,
          ...adminErrors({ 404: 'No vendor with that slug (`not_found`).' }),
        },
      },
      preValidation: strictJsonBody(),
    },
    async (request) => {
      const { slug, field } = request.params;
      const { value, reason } = request.body;
      const out = await s.operator.setOverride(slug, field, value, reason, actorOf(request));
      const entry = (await s.operator.listOverrides(slug)).find((o) => o.field === field);
      return { override: entry, scoreChanges: out.scoreChanges };
    },
  );

  app.delete<{
    Params: OverrideParams;
    Querystring: ClearOverrideQuery;
    Body: ClearOverrideBody;
    Headers: OperatorHeaders;
  }>(
    '/vendors/:slug/overrides/:field',
    {
      schema: {
        operationId: 'clearOverride',
        summary: 'Clear an override',
        description:
          'The field goes back to its computed value. The override (who set it, when, why) and who cleared ' +
          'it, when and the optional `reason` (query parameter or body, not both) are kept in the operator ' +
          'decision log.',
        tags: ['overrides'],
        params: OverrideParams,
        querystring: ClearOverrideQuery,
        headers: OperatorHeaders,
        body: ClearOverrideBody,
        bodyOptional: true,
        response: {
          200: AdminOverrideCleared,
          ...adminErrors({ 404: 'No vendor with that slug, or it has no such override (`not_found`).' }),
        },
      },
      preValidation: strictJsonBody({ emptyBody: 'object' }),
    },
    async (request) => {
      const { slug, field } = request.params;
      const inQuery = request.query.reason;
      const inBody = request.body.reason;
      if (inQuery !== undefined && inBody !== undefined) {
        throw invalidParameter('reason', 'must be given once: in the query or in the body.');
      }
      const before = (await s.operator.listOverrides(slug)).find((o) => o.field === field) ?? null;
      const out = await s.operator.clearOverride(slug, field, actorOf(request), inQuery ?? inBody);
      return { cleared: before, scoreChanges: out.scoreChanges };
    },
  );
}
