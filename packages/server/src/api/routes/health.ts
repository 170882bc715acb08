import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { VERSION } from '../../version.js';

const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')]),
    version: Type.String(),
    checks: Type.Record(Type.String(), Type.String(), {
      description: 'One entry per dependency: "ok", "down", …',
      examples: [{ database: 'ok' }, { database: 'ok', redis: 'down' }],
    }),
  },
  { $id: 'HealthResponse', title: 'HealthResponse' },
);

const CHECK_TTL_MS = 1000;

export default function healthRoute(app: FastifyInstance, services: Services) {
  // The database check is cached for at most one second so health stays cheap under load. The
  // promise is cached as soon as the ping starts: requests that arrive while it runs share it
  // instead of each starting one of their own (a burst of health checks is one ping).
  let cached: { at: number; ok: Promise<boolean> } | null = null;
  function databaseOk(): Promise<boolean> {
    const now = Date.now();
    if (cached && now - cached.at < CHECK_TTL_MS) return cached.ok;
    const ok = services.store.ping().then(
      () => true,
      () => false,
    );
    cached = { at: now, ok };
    return ok;
  }

  app.addSchema(HealthResponse);
  app.get(
    '/api/v1/health',
    {
      schema: {
        summary: 'Service health',
        description:
          'Needs no key (a supplied key is ignored). 200 with `ok` or `degraded` (an optional dependency is down); 503 with `unavailable` when the database is down.',
        tags: ['Health'],
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 200: Type.Ref('HealthResponse'), 503: Type.Ref('HealthResponse') },
      },
    },
    async (_request, reply) => {
      const [database, optional] = await Promise.all([
        databaseOk(),
        // Optional dependencies (Redis): down means degraded, never unavailable.
        services.rateLimiter.health?.() ?? {},
      ]);
      const degraded = Object.values(optional).some((check) => check !== 'ok');
      const body = {
        status: database ? (degraded ? 'degraded' : 'ok') : 'unavailable',
        version: VERSION,
        checks: { database: database ? 'ok' : 'down', ...optional },
      };
      if (!database) reply.header('retry-after', '1');
      return reply.code(database ? 200 : 503).send(body);
    },
  );
}
