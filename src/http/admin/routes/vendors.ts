import type { FastifyInstance } from 'fastify';
import { invalidParameter } from '../../../core/errors.ts';
import type { AppServices } from '../../services.ts';
import { actorOf } from '../operator-header.ts';
import {
  AdminListingsResult,
  AdminVendor,
  AdminVendorWrite,
  adminErrors,
  ClaimBody,
  ListingsBody,
  OperatorHeaders,
  UpdateVendorBody,
  VendorParams,
} from '../schemas.ts';
import { strictJsonBody } from '../strict-body.ts';

const VENDOR_404 = { 404: 'No vendor with that slug (`not_found`).' };

/** A vendor as operators see it, its flags, its owner, and its live listing feed. */
export function vendorRoutes(app: FastifyInstance, s: AppServices): void {
  app.get<{ Params: VendorParams }>(
    '/vendors/:slug',
    {
      schema: {
        operationId: 'getVendor',
        summary: 'Vendor, as operators see it',
        description:
          'Stored flags, pillars computed from evidence, effective pillars and score (overrides applied), ' +
          'overrides with who, when and why, and the score history with the reason of each entry.',
        tags: ['vendors'],
        params: VendorParams,
        response: { 200: AdminVendor, ...adminErrors(VENDOR_404) },
      },
    },
    async (request) => s.operator.vendor(request.params.slug),
  );

  app.patch<{ Params: VendorParams; Body: UpdateVendorBody; Headers: OperatorHeaders }>(
    '/vendors/:slug',
    {
      schema: {
        operationId: 'updateVendor',
        summary: 'Verify a vendor, flag it pending, or change its listing plan',
        description:
          'At least one of `verified`, `pending`, `listingPlan`. Verifying stamps `verifiedAt` (now); ' +
          'unverifying clears it. Only fields that differ from the stored state are written; when none ' +
          'does, nothing is written and `changed` is false.',
        tags: ['vendors'],
        params: VendorParams,
        headers: OperatorHeaders,
        body: UpdateVendorBody,
        response: { 200: AdminVendorWrite, ...adminErrors(VENDOR_404) },
      },
      preValidation: strictJsonBody(),
    },
    async (request) => {
      const b = request.body;
      if (b.verified === undefined && b.pending === undefined && b.listingPlan === undefined) {
        throw invalidParameter('body', 'must set at least one of verified, pending, listingPlan.');
      }
      // Only what differs is written; asking for the current state writes nothing (the core decides).
      const out = await s.operator.updateVendor(request.params.slug, b, actorOf(request));
      return { changed: out.changed, vendor: out.vendor, scoreChanges: out.scoreChanges };
    },
  );

  app.put<{ Params: VendorParams; Body: ClaimBody; Headers: OperatorHeaders }>(
    '/vendors/:slug/claim',
    {
      schema: {
        operationId: 'claimVendor',
        summary: "Give a vendor's profile to an account, or release it",
        description:
          "The owning account may reply to the vendor's reviews; a claimed vendor shows `claimed: true` in " +
          'price tables. `account: null` releases the claim. An unknown account is 400. Claiming for the ' +
          'current owner writes nothing (`changed` false).',
        tags: ['vendors'],
        params: VendorParams,
        headers: OperatorHeaders,
        body: ClaimBody,
        response: { 200: AdminVendorWrite, ...adminErrors(VENDOR_404) },
      },
      preValidation: strictJsonBody(),
    },
    async (request) => {
      const out = await s.operator.claimVendor(request.params.slug, request.body.account, actorOf(request));
      return { changed: out.changed, vendor: out.vendor, scoreChanges: out.scoreChanges };
    },
  );

  app.post<{ Params: VendorParams; Body: ListingsBody; Headers: OperatorHeaders }>(
    '/vendors/:slug/listings',
    {
      // 5,000 rows, even pretty-printed, fit in 2 MiB.
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        operationId: 'putListings',
        summary: "Accept a vendor's live listing feed",
        description:
          'A batch of price rows, each written as a `live` row of the vendor for its peptide and vial size ' +
          '(replacing the baseline row of the same vial in price tables). All or nothing: one bad row ' +
          '(e.g. an unknown peptide) rejects the feed and nothing is written. Rows are stale 72 h after ' +
          '`updatedAt`.',
        tags: ['vendors'],
        params: VendorParams,
        headers: OperatorHeaders,
        body: ListingsBody,
        response: { 200: AdminListingsResult, ...adminErrors(VENDOR_404) },
      },
      preValidation: strictJsonBody(),
    },
    async (request) => {
      const { slug } = request.params;
      const out = await s.operator.putListings(slug, request.body.rows, actorOf(request));
      return { vendorSlug: slug, rows: out.rows, scoreChanges: out.scoreChanges };
    },
  );
}
