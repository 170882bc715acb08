import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Services } from '../../context.js';
import { DomainError } from '../../domain/errors.js';
import { parseExpiresIn, parseFutureDate, parseGrace } from '../../domain/key-limits.js';
import { describeKey } from '../../domain/key-state.js';
import { parseRateLimit } from '../../domain/rate-limit-spec.js';
import { textParser } from '../../domain/text.js';
import { makeView, parseHideFields, parseWhere } from '../../domain/view.js';
import { PERMISSIONS } from '../../keys/permissions.js';
import { OperationError } from '../../operations/errors.js';
import {
  createKey,
  expiryFrom,
  keyUserEmail,
  listKeys,
  revokeKey,
  rotateKey,
  setKeyEnabled,
  updateKeyView,
} from '../../operations/keys.js';
import type { ApiKeyRecord, KeyView } from '../../store/types.js';
import { actorOf, findKey, findOrganization, problemError } from '../context.js';
import { AdminError, invalid } from '../errors.js';
import {
  adminErrors,
  CreateKeyBody,
  KeyDescription,
  KeyParams,
  KeyWithSecret,
  OrgParam,
  RotateKeyBody,
  UpdateKeyBody,
} from '../schemas.js';
import { field } from '../validation.js';

const TAGS = ['Keys'];
type OrgRequest = { Params: Static<typeof OrgParam> };
type KeyRequest = { Params: Static<typeof KeyParams> };

/** Ids and emails never hold one; PostgreSQL cannot even be asked about a NUL. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function permissionNames(values: string[]): string[] {
  values.forEach((value, i) => {
    if (!(PERMISSIONS as readonly string[]).includes(value)) {
      throw invalid(
        `permissions[${i}]`,
        `Unknown permission ${JSON.stringify(value.slice(0, 40))}; known permissions: ${PERMISSIONS.join(', ')} (send [] for none).`,
      );
    }
  });
  return [...new Set(values)];
}

type ViewInput = NonNullable<Static<typeof UpdateKeyBody>['view']>;

/**
 * A view as the body sends it, checked with the CLI's rules (domain/view.ts) and canonical;
 * each refusal names the member at fault (`view.where[1]`).
 */
function viewOf(input: ViewInput | null): KeyView | null {
  if (input === null) return null;
  const where = (input.where ?? []).map((raw, i) => field(`view.where[${i}]`, parseWhere, raw));
  const hideFields = (input.hideFields ?? []).map((raw, i) => {
    const name = `view.hideFields[${i}]`;
    // One field per entry: a comma-separated list is the CLI's spelling, not the API's.
    if (raw.includes(',')) {
      throw invalid(name, `${name}: name one field per entry, e.g. ["barcode", "stock"].`);
    }
    return field(name, (text) => parseHideFields(text)[0] as string, raw);
  });
  try {
    return makeView({ where, hideFields, quantityCap: input.quantityCap ?? null });
  } catch (error) {
    if (error instanceof DomainError) throw invalid(`view.${error.field}`, `${error.message}.`);
    throw error;
  }
}

/**
 * A view's location that the organization lacks is answered as elsewhere (404
 * LOCATION_NOT_FOUND), naming the filter at fault.
 */
async function withViewLocations<T>(view: KeyView | null, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof OperationError && error.problem.code === 'LOCATION_NOT_FOUND') {
      const index = view?.where.indexOf(`location=${error.problem.location}`) ?? -1;
      const mapped = problemError(error.problem);
      throw new AdminError('LOCATION_NOT_FOUND', mapped.message, {
        param: index >= 0 ? `view.where[${index}]` : 'view',
      });
    }
    throw error;
  }
}

/** The key as the CLI shows it, with its user's email (user keys). */
async function shown(services: Services, key: ApiKeyRecord) {
  return describeKey(key, await keyUserEmail(services.store, key));
}

export default function keyRoutes(app: FastifyInstance, services: Services) {
  const store = services.store;

  app.get<OrgRequest>(
    '/admin/v1/organizations/:org/keys',
    {
      schema: {
        summary: 'List keys',
        description:
          'As `stockroom key list`: the organization’s keys, oldest first, with their state and last use (recorded a few seconds late); never a secret or a hash.',
        tags: TAGS,
        params: OrgParam,
        response: {
          200: Type.Object({ data: Type.Array(KeyDescription) }),
          ...adminErrors(['ORGANIZATION_NOT_FOUND']),
        },
      },
    },
    async (request) => {
      const { org } = request.params;
      const keys = await listKeys(store, await findOrganization(store, org));
      return { data: keys.map(({ key, userEmail }) => describeKey(key, userEmail)) };
    },
  );

  app.post<OrgRequest & { Body: Static<typeof CreateKeyBody> }>(
    '/admin/v1/organizations/:org/keys',
    {
      schema: {
        summary: 'Create a key',
        description:
          'As `stockroom key create`: an organization key, or a user key for a member with `user`, seeing only what `view` allows. The answer carries the key itself, once: it is stored only as a hash.',
        tags: TAGS,
        params: OrgParam,
        body: CreateKeyBody,
        response: {
          201: Type.Object({ data: KeyWithSecret }),
          ...adminErrors([
            'INVALID_REQUEST',
            'ORGANIZATION_NOT_FOUND',
            'LOCATION_NOT_FOUND',
            'USER_NOT_FOUND',
            'NOT_A_MEMBER',
            'UNSUPPORTED_MEDIA_TYPE',
          ]),
        },
      },
    },
    async (request, reply) => {
      const { org } = request.params;
      const body = request.body;
      if (body.expiresIn !== undefined && body.expiresAt !== undefined) {
        throw invalid('expiresAt', 'Send expiresIn or expiresAt, not both.');
      }
      const name = body.name === undefined ? undefined : field('name', textParser(100), body.name);
      const permissions =
        body.permissions === undefined ? undefined : permissionNames(body.permissions);
      const expiresIn =
        body.expiresIn === undefined
          ? undefined
          : field('expiresIn', parseExpiresIn, body.expiresIn);
      const expiresAt =
        body.expiresAt === undefined
          ? undefined
          : field('expiresAt', parseFutureDate, body.expiresAt);
      const rateLimit =
        body.rateLimit === undefined
          ? undefined
          : field('rateLimit', parseRateLimit, body.rateLimit);
      if (
        body.user !== undefined &&
        (body.user.length === 0 || body.user.length > 254 || hasControlCharacter(body.user))
      ) {
        throw invalid('user', 'user must be a user id or an email address (1-254 characters).');
      }
      const view = body.view === undefined ? null : viewOf(body.view);
      const organization = await findOrganization(store, org);
      const { issued, user } = await withViewLocations(view, () =>
        createKey(store, actorOf(request), organization, {
          ...(body.user !== undefined && { user: body.user }),
          ...(name !== undefined && { name }),
          ...(permissions !== undefined && { permissions }),
          expiresAt: expiryFrom({
            ...(expiresIn !== undefined && { expiresIn }),
            ...(expiresAt !== undefined && { expiresAt }),
          }),
          remaining: body.remaining ?? null,
          ...(rateLimit !== undefined && { rateLimit: rateLimit === 'none' ? null : rateLimit }),
          view,
        }),
      );
      const { id, ...rest } = describeKey(issued.record, user?.email ?? null);
      reply
        .code(201)
        .header('location', `/admin/v1/organizations/${organization.id}/keys/${id}`)
        // The answer holds a secret: no cache along the way may keep it.
        .header('cache-control', 'no-store');
      return { data: { id, key: issued.key, ...rest } };
    },
  );

  app.get<KeyRequest>(
    '/admin/v1/organizations/:org/keys/:keyId',
    {
      schema: {
        summary: 'Show a key',
        tags: TAGS,
        params: KeyParams,
        response: {
          200: Type.Object({ data: KeyDescription }),
          ...adminErrors(['INVALID_REQUEST', 'ORGANIZATION_NOT_FOUND', 'KEY_NOT_FOUND']),
        },
      },
    },
    async (request) => {
      const { org, keyId } = request.params;
      const organization = await findOrganization(store, org);
      return { data: await shown(services, await findKey(store, organization, keyId)) };
    },
  );

  app.patch<KeyRequest & { Body: Static<typeof UpdateKeyBody> }>(
    '/admin/v1/organizations/:org/keys/:keyId',
    {
      schema: {
        summary: 'Update a key’s view',
        description:
          'As `stockroom key update`: `view` replaces the whole view of the key (null clears it: every item, every field). Its next requests see the new view on every process within a second. Recorded as `key.updated` with the view before and after; the view it already has is refused. A revoked key is refused.',
        tags: TAGS,
        params: KeyParams,
        body: UpdateKeyBody,
        response: {
          200: Type.Object({ data: KeyDescription }),
          ...adminErrors([
            'INVALID_REQUEST',
            'ORGANIZATION_NOT_FOUND',
            'KEY_NOT_FOUND',
            'LOCATION_NOT_FOUND',
            'KEY_REVOKED',
            'UNSUPPORTED_MEDIA_TYPE',
          ]),
        },
      },
    },
    async (request) => {
      const { org, keyId } = request.params;
      const view = viewOf(request.body.view);
      const organization = await findOrganization(store, org);
      const current = await findKey(store, organization, keyId);
      const changed = await withViewLocations(view, () =>
        updateKeyView(store, actorOf(request), organization, current, view),
      );
      return { data: await shown(services, changed) };
    },
  );

  const stateRoute = (
    verb: 'disable' | 'enable' | 'revoke',
    description: string,
    change: (key: ApiKeyRecord, request: FastifyRequest) => Promise<ApiKeyRecord>,
  ) =>
    app.post<KeyRequest>(
      `/admin/v1/organizations/:org/keys/:keyId/${verb}`,
      {
        schema: {
          summary: `${verb[0]?.toUpperCase()}${verb.slice(1)} a key`,
          description,
          tags: TAGS,
          params: KeyParams,
          response: {
            200: Type.Object({ data: KeyDescription }),
            ...adminErrors([
              'INVALID_REQUEST',
              'ORGANIZATION_NOT_FOUND',
              'KEY_NOT_FOUND',
              ...(verb === 'revoke' ? [] : ['KEY_REVOKED' as const]),
            ]),
          },
        },
      },
      async (request) => {
        const { org, keyId } = request.params;
        const organization = await findOrganization(store, org);
        const key = await findKey(store, organization, keyId);
        return { data: await shown(services, await change(key, request)) };
      },
    );

  stateRoute(
    'disable',
    'As `stockroom key disable`: the key stops working (401 KEY_DISABLED) on every process within a second, until it is enabled again. A revoked key is refused.',
    (key, request) => setKeyEnabled(store, actorOf(request), key, false),
  );
  stateRoute(
    'enable',
    'As `stockroom key enable`: a disabled key works again. A revoked key is refused.',
    (key, request) => setKeyEnabled(store, actorOf(request), key, true),
  );
  stateRoute(
    'revoke',
    'As `stockroom key revoke`: the key is revoked for good, both its secrets; the API then treats it as unknown.',
    (key, request) => revokeKey(store, actorOf(request), key),
  );

  app.post<KeyRequest & { Body: Static<typeof RotateKeyBody> }>(
    '/admin/v1/organizations/:org/keys/:keyId/rotate',
    {
      schema: {
        summary: 'Rotate a key',
        description:
          'As `stockroom key rotate`: a new secret, shown once in the answer; the key keeps its id, name, permissions, expiry, quota and rate limit. Without `grace` the old secret stops at once; with it, it keeps working until then. Rotating again ends an earlier grace period.',
        tags: TAGS,
        params: KeyParams,
        body: RotateKeyBody,
        response: {
          200: Type.Object({ data: KeyWithSecret }),
          ...adminErrors([
            'INVALID_REQUEST',
            'ORGANIZATION_NOT_FOUND',
            'KEY_NOT_FOUND',
            'KEY_REVOKED',
            'UNSUPPORTED_MEDIA_TYPE',
          ]),
        },
      },
    },
    async (request, reply) => {
      const { org, keyId } = request.params;
      const { grace } = request.body;
      const graceSeconds = grace === undefined ? 0 : field('grace', parseGrace, grace);
      const organization = await findOrganization(store, org);
      const current = await findKey(store, organization, keyId);
      const rotated = await rotateKey(store, actorOf(request), current, graceSeconds);
      const { id, ...rest } = await shown(services, rotated.record);
      reply.header('cache-control', 'no-store');
      return { data: { id, key: rotated.key, ...rest } };
    },
  );
}
