import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { isoTime } from '../../time.js';
import type { AccessPolicy } from '../auth.js';
import { routeQuery } from '../query-validator.js';
import { errorResponses, KEY_ERRORS, SECURITY } from '../schemas.js';

const Timestamp = Type.String({ format: 'date-time' });

/** A key's view as operators wrote it (docs/architecture.md#key-views). */
const KeyViewSchema = Type.Object({
  where: Type.Array(Type.String(), {
    description:
      'Filters that must all hold: `status=A[,B…]`, `location=CODE` (more than 0 there), `customFields.NAME=VALUE`.',
  }),
  hideFields: Type.Array(Type.String(), {
    description: 'Item fields (or `customFields.NAME`) left out of every answer.',
  }),
  quantityCap: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Every quantity (item and stock) is served as at most this.',
  }),
});
const VerifyResponse = Type.Object(
  {
    valid: Type.Literal(true),
    key: Type.Object({
      id: Type.String(),
      name: Type.String(),
      type: Type.Union([Type.Literal('organization'), Type.Literal('user')]),
      prefix: Type.String({
        description: 'Type prefix and first 4 random characters; safe to show.',
      }),
      organizationId: Type.String(),
      userId: Type.Union([Type.String(), Type.Null()]),
      permissions: Type.Array(Type.String()),
      expiresAt: Type.Union([Timestamp, Type.Null()]),
      remaining: Type.Union([
        Type.Integer({ description: 'Uses left of the quota, now.' }),
        Type.Null(),
      ]),
      rateLimit: Type.Union([
        Type.Object({ max: Type.Integer(), windowSeconds: Type.Integer() }),
        Type.Null(),
      ]),
      createdAt: Timestamp,
      view: Type.Union([KeyViewSchema, Type.Null()], {
        description:
          'What this key may see (key views): items matching every `where` filter, without the `hideFields`, quantities capped at `quantityCap`; null when it sees every item whole.',
      }),
    }),
  },
  { $id: 'VerifyResponse', title: 'VerifyResponse' },
);

const access: AccessPolicy = { keyed: true, chargesQuota: false };
const verifyQuery = routeQuery({ optional: [] });

export default function authVerifyRoute(app: FastifyInstance, services: Services) {
  app.addSchema(VerifyResponse);
  app.get(
    '/api/v1/auth/verify',
    {
      config: { access },
      validatorCompiler: verifyQuery.validatorCompiler,
      schema: {
        summary: 'Verify an API key',
        description:
          'Describes the key the request was made with. Counts toward the rate limit, spends no quota, and reports the uses left now. Never returns the secret or its hash.',
        tags: ['Authentication'],
        security: SECURITY,
        querystring: verifyQuery.schema,
        response: { 200: Type.Ref('VerifyResponse'), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const key = request.principal?.key;
      if (!key) throw new Error('authenticate did not run');
      return {
        valid: true,
        key: {
          id: key.id,
          name: key.name,
          type: key.type,
          prefix: key.prefix,
          organizationId: key.organizationId,
          userId: key.userId,
          permissions: key.permissions,
          expiresAt: key.expiresAt === null ? null : isoTime(key.expiresAt),
          remaining: key.remaining === null ? null : await services.store.getRemaining(key.id),
          rateLimit: key.rateLimit,
          createdAt: isoTime(key.createdAt),
          view: key.view,
        },
      };
    },
  );
}
