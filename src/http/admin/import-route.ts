import { timingSafeEqual } from 'node:crypto';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { importJsonLineBatches } from '../../core/import/import-data.ts';
import { decodeJsonLineBatches } from '../../core/import/json-lines.ts';
import { MAX_LISTED_ERRORS } from '../../core/import/parse-import.ts';
import { sendError } from '../error-body.ts';
import type { AppServices } from '../services.ts';
import { ErrorBodySchema } from '../shared-schemas.ts';
import { adminErrors } from './schemas.ts';

const ImportOk = T.Object(
  {
    imported: T.Boolean(),
    lines: T.Integer(),
    counts: T.Record(T.String(), T.Integer(), { description: 'Records written per type.' }),
  },
  { $id: 'ImportResult', title: 'ImportResult' },
);

const ImportRejected = T.Object(
  {
    error: T.Object({
      code: T.Literal('invalid_parameter'),
      message: T.String(),
      status: T.Literal(400),
      request_id: T.String(),
      error_count: T.Integer({ description: 'Every error in the file, listed or not.' }),
      lines: T.Array(T.Object({ line: T.Integer(), message: T.String() }), {
        description: `The first ${MAX_LISTED_ERRORS.toLocaleString('en-US')} errors, in line order.`,
      }),
    }),
  },
  {
    $id: 'ImportRejected',
    title: 'ImportRejected',
    description: `Nothing was written; the first ${MAX_LISTED_ERRORS.toLocaleString('en-US')} errors are listed and \`error_count\` counts them all.`,
  },
);

export function adminGuard(token: string) {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    // Constant-time comparison: the admin token must not leak through timing.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return sendError(request, reply, 'invalid_api_key', 'The admin token is not valid.');
    }
    return undefined;
  };
}

export function importRoute(app: FastifyInstance, s: AppServices): void {
  app.addContentTypeParser(
    ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'text/plain'],
    // Bytes, not text: the import parser decodes them (core/import/json-lines.ts), so invalid
    // UTF-8 is a bad line with its number, as in `purerank import`, not a silent U+FFFD.
    { parseAs: 'buffer', bodyLimit: s.config.importMaxBytes },
    (_req, body, done) => done(null, body),
  );
  app.post<{ Body: Buffer }>(
    '/import',
    {
      bodyLimit: s.config.importMaxBytes,
      // The body schema below documents the file; the body itself is bytes, which preValidation
      // has checked, and the parser validates line by line.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'importData',
        summary: 'Import JSON Lines',
        description:
          'Loads the JSON Lines format of docs/import-format.md. All or nothing: any bad line rejects the file ' +
          `with its bad lines counted and the first ${MAX_LISTED_ERRORS.toLocaleString('en-US')} errors listed, and ` +
          'nothing is written. Idempotent (upserts by natural key). The write is one transaction, during which a ' +
          'SQLite server answers nothing else: large files belong in `purerank import FILE` (docs/operator-api.md).',
        tags: ['import'],
        consumes: ['application/x-ndjson'],
        body: T.String({ description: 'JSON Lines, one record per line.' }),
        response: {
          ...adminErrors(),
          200: ImportOk,
          // Bad lines get the line list; a request refused before its lines are read (an empty
          // body, a header the parser refuses) gets the common error body.
          400: T.Union([ImportRejected, T.Ref(ErrorBodySchema)], {
            description:
              'Bad lines (`ImportRejected`: nothing was written, the first bad lines are listed), or a request ' +
              'refused before its lines were read (the common error body).',
          }),
        },
      },
      // Before body validation, so a JSON document gets 415 rather than a schema complaint.
      preValidation: async (request, reply) => {
        if (!Buffer.isBuffer(request.body)) {
          return sendError(
            request,
            reply,
            'unsupported_media_type',
            'This endpoint takes the file as JSON Lines: use Content-Type application/x-ndjson (not application/json).',
          );
        }
        return undefined;
      },
    },
    async (request, reply) => {
      const result = await importJsonLineBatches(
        decodeJsonLineBatches([request.body]),
        { store: s.store.imports, clock: s.clock },
        { reason: 'admin import' },
      );
      if (!result.ok) {
        return reply.code(400).send({
          error: {
            code: 'invalid_parameter',
            message: rejectionMessage(result.badLines, result.errorCount, result.errors.length),
            status: 400,
            request_id: request.id,
            error_count: result.errorCount,
            lines: result.errors,
          },
        });
      }
      await s.freshness.refresh();
      return { imported: true, lines: result.lines, counts: result.counts };
    },
  );
}

/** "The file has 6 bad lines; nothing was imported." and, when the list is cut, what was left out. */
export function rejectionMessage(badLines: number, errorCount: number, listed: number): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const head = `The file has ${fmt(badLines)} bad line${badLines === 1 ? '' : 's'}; nothing was imported.`;
  if (listed >= errorCount) return head;
  const more = errorCount - listed;
  return `${head} The first ${fmt(listed)} errors are listed; ${fmt(more)} more are not.`;
}
