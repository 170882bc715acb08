// The floor under the API's health check: Fastify with what every Stockroom answer must carry,
// added one piece at a time (bench/instructions.js --floor). Usage: node fastify-floor.js
// PIECES PORT, PIECES a string of letters: L a pino request line per request (through a
// per-request child logger unless N), N no child logger, I a random UUID request id,
// H the five fixed response headers (request id, three security headers, cache-control).
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pino from 'pino';

const [pieces = '', port = '3903'] = process.argv.slice(2);
const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
const app = Fastify({
  ...(pieces.includes('L') ? { loggerInstance: logger } : { logger: false }),
  logController: new (await import('fastify')).LogController({ disableRequestLogging: true }),
  ...(pieces.includes('I') ? { genReqId: () => randomUUID() } : {}),
  ...(pieces.includes('N') ? { childLoggerFactory: (parent) => parent } : {}),
});
if (pieces.includes('H')) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'private, no-cache');
    done();
  });
}
if (pieces.includes('L')) {
  const log = pieces.includes('N') ? app.log : null;
  app.addHook('onResponse', (request, reply, done) => {
    (log ?? request.log).info(
      {
        ...(log ? { reqId: request.id } : {}),
        method: request.method,
        route: '/api/v1/health',
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        requestId: request.id,
        keyId: null,
        clientAddress: request.ip,
      },
      'request',
    );
    done();
  });
}
const body = { status: 'ok', version: '0.1.0', checks: { database: 'ok' } };
const schema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    version: { type: 'string' },
    checks: { type: 'object', additionalProperties: { type: 'string' } },
  },
};
app.get('/api/v1/health', { schema: { response: { 200: schema } } }, async () => body);
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
