import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { DEPENDENCY_CHECK_TIMEOUT_MS } from '../../dependency-checks.js';
import { ApiError } from '../errors.js';
import { errorResponses } from '../schemas.js';

/**
 * Probes for supervisors and load balancers (docs/architecture.md#probes): keyless, outside
 * /api/v1, never rate limited (they carry no `access` policy, so no key is read and the
 * auth-failure throttle never sees them). `livez` says the process serves; `readyz` says it
 * should be sent traffic: the database answers and it is not shutting down. Redis, when
 * configured, is reported but never fails readiness: without it each instance serves on its
 * local fallback rate limiter, and taking every instance out at once would turn a Redis
 * outage into a whole outage.
 */

/** Dependencies that are reported but do not decide readiness. */
const OPTIONAL = new Set(['redis']);

/** How long readyz waits for one dependency: a hung one must not hang the probe. */
export const READY_CHECK_TIMEOUT_MS = DEPENDENCY_CHECK_TIMEOUT_MS;

const LiveResponse = Type.Object(
  { status: Type.Literal('ok') },
  { $id: 'LiveResponse', title: 'LiveResponse' },
);

const ReadyResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description: '`degraded` when Redis is configured and does not answer: still ready.',
    }),
    checks: Type.Record(
      Type.String(),
      Type.Union([Type.Literal('ok'), Type.Literal('down'), Type.Literal('timeout')]),
      {
        description:
          'What was checked: the database (always `ok` in a 200), and Redis when it is configured (`ok`, `down`, or `timeout` when it did not answer within one second).',
        examples: [
          { database: 'ok' },
          { database: 'ok', redis: 'ok' },
          { database: 'ok', redis: 'down' },
        ],
      },
    ),
  },
  { $id: 'ReadyResponse', title: 'ReadyResponse' },
);

export default function probesRoute(app: FastifyInstance, services: Services) {
  app.addSchema(LiveResponse);
  app.addSchema(ReadyResponse);

  app.get(
    '/livez',
    {
      schema: {
        summary: 'Liveness probe',
        description:
          'Needs no key. 200 while the process serves, whatever the state of its dependencies (restart the process only when this fails). Never rate limited.',
        tags: ['Probes'],
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 200: Type.Ref('LiveResponse') },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness probe',
        description:
          'Needs no key. 200 when this process should receive traffic: the database answers within one second and the process is not shutting down. A configured Redis is reported in `checks` (and `status` is `degraded` when it does not answer) but does not fail readiness: each instance then serves on its local fallback rate limiter. 503 `SERVICE_UNAVAILABLE` naming what is not ready (the database, or the process is shutting down: it answers 503 from the moment it receives SIGTERM or SIGINT). Never rate limited.',
        tags: ['Probes'],
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 200: Type.Ref('ReadyResponse'), ...errorResponses(['SERVICE_UNAVAILABLE']) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      if (services.draining) {
        services.metrics.unavailable('draining');
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          'Not ready: this process is draining (shutting down); it finishes the requests in flight and takes no new ones. Send traffic to another instance.',
          { headers: { 'retry-after': '1' } },
        );
      }
      const report = await services.checkDependencies();
      // Draining may have begun while the checks ran.
      const failed = Object.entries(report)
        .filter(([name, check]) => check.state !== 'ok' && !OPTIONAL.has(name))
        .map(([name, check]) => [name, check.state] as const);
      if (services.draining || failed.length > 0) {
        const reasons = failed.map(
          ([name, check]) =>
            `${name} ${check === 'timeout' ? `did not answer within ${READY_CHECK_TIMEOUT_MS} ms` : 'is unreachable'}`,
        );
        if (services.draining) reasons.push('this process is draining (shutting down)');
        services.metrics.unavailable(services.draining ? 'draining' : 'not_ready');
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          `Not ready: ${reasons.join('; ')}. Retry after the number of seconds in Retry-After.`,
          { headers: { 'retry-after': '1' } },
        );
      }
      const checks = Object.fromEntries(
        Object.entries(report).map(([name, check]) => [name, check.state]),
      );
      const degraded = Object.values(report).some((check) => check.state !== 'ok');
      return reply.send({ status: degraded ? 'degraded' : 'ok', checks });
    },
  );
}
