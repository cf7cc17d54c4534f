import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services.ts';
import { actorOf } from '../operator-header.ts';
import {
  AdminReplyCreated,
  AdminReviewCreated,
  adminErrors,
  OperatorHeaders,
  ReplyBody,
  ReviewBody,
  ReviewParams,
} from '../schemas.ts';
import { strictJsonBody } from '../strict-body.ts';

/** Reviews of vendors and the owning account's reply. Each writes an outbox event. */
export function reviewRoutes(app: FastifyInstance, s: AppServices): void {
  app.post<{ Body: ReviewBody; Headers: OperatorHeaders }>(
    '/reviews',
    {
      schema: {
        operationId: 'addReview',
        summary: 'Add a review',
        description: 'Writes a `review.new` event; the sentiment pillar follows.',
        tags: ['reviews'],
        headers: OperatorHeaders,
        body: ReviewBody,
        response: {
          201: AdminReviewCreated,
          ...adminErrors({
            404: 'No vendor with that slug (`not_found`).',
            409: 'A review with that id exists (`conflict`).',
          }),
        },
      },
      preValidation: strictJsonBody(),
    },
    async (request, reply) => {
      const out = await s.operator.addReview(request.body, actorOf(request));
      return reply
        .code(201)
        .send({ id: out.id, vendorSlug: request.body.vendorSlug, scoreChanges: out.scoreChanges });
    },
  );

  app.post<{ Params: ReviewParams; Body: ReplyBody; Headers: OperatorHeaders }>(
    '/reviews/:id/reply',
    {
      schema: {
        operationId: 'replyToReview',
        summary: "Reply to a review for the vendor's owner",
        description:
          'One reply per review, written by the account that claimed the reviewed vendor (another account ' +
          'is 400 naming `account`). Writes a `review.reply` event.',
        tags: ['reviews'],
        params: ReviewParams,
        headers: OperatorHeaders,
        body: ReplyBody,
        response: {
          201: AdminReplyCreated,
          ...adminErrors({
            404: 'No review with that id (`not_found`).',
            409: 'The review already has a reply, or its vendor is not claimed (`conflict`).',
          }),
        },
      },
      preValidation: strictJsonBody(),
    },
    async (request, reply) => {
      const { id } = request.params;
      const out = await s.operator.reply(id, request.body, actorOf(request));
      return reply
        .code(201)
        .send({ reviewId: id, account: request.body.account, scoreChanges: out.scoreChanges });
    },
  );
}
