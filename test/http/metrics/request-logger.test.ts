import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLogger } from '../../../src/http/request-logger.ts';

/** A Fastify app logging into memory, with the service's request logger and id label. */
function appLoggingTo(lines: Record<string, unknown>[], level = 'info') {
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    disableRequestLogging: true,
    requestIdLogLabel: 'request_id',
    genReqId: () => `req-${lines.length}-${Math.random().toString(36).slice(2, 8)}`,
    childLoggerFactory: requestLogger,
  });
  app.get('/fails', async (request) => {
    request.log.error({ detail: 1 }, 'something failed');
    request.log.debug('not logged at info');
    return 'ok';
  });
  return app;
}

describe('structured request logs', () => {
  it('every line a request logs carries its id, once; a level that is off logs nothing', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    try {
      const res = await app.inject({ url: '/fails' });
      expect(res.statusCode).toBe(200);
      const failed = lines.filter((l) => l.msg === 'something failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ level: 50, detail: 1 });
      expect(typeof failed[0]!.request_id).toBe('string');
      expect(lines.some((l) => l.msg === 'not logged at info')).toBe(false);
      // The raw line has the key once (pino would write a second one if it were bound and passed).
      expect(JSON.stringify(failed[0]).match(/"request_id"/g)).toHaveLength(1);
      expect(failed[0]!.request_id).toMatch(/^req-/);
    } finally {
      await app.close();
    }
  });

  it('with request logging on, the framework’s own lines carry the id too', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = Fastify({
      logger: { level: 'info', stream },
      requestIdLogLabel: 'request_id',
      genReqId: () => 'fixed-id-1',
      childLoggerFactory: requestLogger,
    });
    app.get('/', async () => 'ok');
    try {
      await app.inject({ url: '/' });
      const about = lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed');
      expect(about).toHaveLength(2);
      for (const l of about) expect(l.request_id).toBe('fixed-id-1');
    } finally {
      await app.close();
    }
  });
});
