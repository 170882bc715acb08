import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../context.js';
import { clientAddressOf } from '../http/client-address.js';
import { routeOf } from '../http/route-of.js';
import { hashKey, isWellFormedKey } from '../keys/format.js';
import type { ApiKeyRecord, KeyContext, Organization } from '../store/types.js';
import { isoTime } from '../time.js';
import { ApiError } from './errors.js';
import type { QueryChecks } from './query-checks.js';

/** Who is calling: established by `authenticate`, completed by `authorize`. */
export interface Principal {
  key: ApiKeyRecord;
  hash: string;
  /** The key's own organization. */
  organization: Organization;
  member: boolean;
}

/** What a keyed route asks of the caller (set as route `config`). */
export interface AccessPolicy {
  keyed: true;
  /** Accepts the legacy `organizationId` override. */
  organizationOverride?: boolean;
  feature?: string;
  permission?: string;
  /** Whether a successful request spends one use of the key's quota. */
  chargesQuota: boolean;
  /** The checks of the parsed query that need the key or the organization's data. */
  checks?: QueryChecks<never>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** The organization the request acts on, after the override was applied. */
    organization?: Organization;
    quotaCharged?: boolean;
  }
  interface FastifyContextConfig {
    access?: AccessPolicy;
  }
}

export const WWW_AUTHENTICATE = 'Bearer realm="stockroom"';
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Every value of the two key headers, each repetition apart: Node joins repeated x-api-key
 * headers with ", " and keeps only the first Authorization header, which would turn a repeated
 * key into a malformed one and hide a second, different Bearer key.
 */
function keyHeaders(request: FastifyRequest): { apiKeys: string[]; authorizations: string[] } {
  const apiKeys: string[] = [];
  const authorizations: string[] = [];
  const raw = request.raw.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = (raw[i + 1] as string).trim();
    if (value === '') continue;
    if (name === 'x-api-key') apiKeys.push(value);
    else if (name === 'authorization') authorizations.push(value);
  }
  return { apiKeys, authorizations };
}

/** Reads the key from `x-api-key` or `Authorization: Bearer`, refusing two different keys. */
export function extractKey(request: FastifyRequest): string {
  const { apiKeys, authorizations } = keyHeaders(request);
  const keys = [...apiKeys];
  for (const authorization of authorizations) {
    const match = BEARER.exec(authorization);
    if (!match) {
      throw new ApiError(
        'INVALID_API_KEY',
        'The Authorization header must be "Bearer <API_KEY>"; or send the key in the x-api-key header.',
      );
    }
    keys.push(match[1] as string);
  }
  const key = keys[0];
  if (key === undefined) {
    throw new ApiError(
      'MISSING_API_KEY',
      'No API key was sent. Send it as "x-api-key: <API_KEY>" or "Authorization: Bearer <API_KEY>".',
    );
  }
  // The same key in both headers (or repeated) is fine; two different keys are ambiguous.
  if (keys.some((other) => other !== key)) {
    throw new ApiError(
      'CONFLICTING_API_KEYS',
      'The x-api-key and Authorization headers carry different keys; send one key in one header.',
    );
  }
  return key;
}

const INVALID_KEY_MESSAGE =
  'The API key is not valid. Check that it was copied whole (keys start with sr_org_ or sr_usr_); ask your operator for a new key if it was revoked.';

/** Runs a hook body that is synchronous unless it returns a promise, in Fastify's callback style. */
function settle(work: () => Promise<void> | undefined, done: (error?: Error) => void): void {
  let pending: Promise<void> | undefined;
  try {
    pending = work();
  } catch (error) {
    done(error as Error);
    return;
  }
  if (pending) pending.then(() => done(), done);
  else done();
}

/**
 * onRequest for keyed routes: identify the key and apply the rate limit, in the order
 * docs/architecture.md#keys fixes (present → well-formed and known → enabled → not expired →
 * not exhausted → rate limit). Query validation runs after this, then `authorize`.
 *
 * Callback style with a synchronous path: a key found in the verifier's cache, without a rate
 * limit or with one kept in memory, is identified without creating a promise (the hot path of
 * every keyed request).
 */
export function authenticate(services: Services) {
  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    hash: string,
    context: KeyContext | null,
  ): Promise<void> | undefined {
    if (!context) throw invalidKey(request);
    const record = context.key;
    request.principal = {
      key: record,
      hash,
      organization: context.organization,
      member: context.member,
    };
    services.usage.record(record.id);
    if (!record.enabled) {
      throw new ApiError(
        'KEY_DISABLED',
        'This API key is disabled. Ask your operator to enable it.',
      );
    }
    const now = Date.now();
    if (record.expiresAt !== null && record.expiresAt <= now) {
      throw new ApiError(
        'KEY_EXPIRED',
        `This API key expired at ${isoTime(record.expiresAt)}. Ask your operator for a new key.`,
      );
    }
    if (record.remaining === 0) {
      throw new ApiError(
        'KEY_EXHAUSTED',
        'This API key has used its whole quota. Ask your operator for a new key.',
      );
    }
    const policy = record.rateLimit;
    if (!policy) return undefined;
    return services.rateLimiter
      .hit(record.organizationId, record.id, policy, now)
      .then((result) => {
        reply.header('x-ratelimit-limit', String(result.limit));
        reply.header('x-ratelimit-remaining', String(result.remaining));
        reply.header('x-ratelimit-reset', String(result.reset));
        if (!result.allowed) {
          services.metrics.rateLimited('key');
          throw new ApiError(
            'RATE_LIMITED',
            `Rate limit of ${result.limit} requests per ${policy.windowSeconds} s reached. Retry after ${result.retryAfter} s.`,
            { headers: { 'retry-after': String(result.retryAfter) } },
          );
        }
      });
  }

  function identify(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    reply.header('cache-control', 'private, no-cache');
    const access = routeOf(request).config.access;
    if (!access) return undefined;
    if (access.organizationOverride && hasOwn(request.query, 'organizationId')) {
      reply.header('deprecation', 'true');
      reply.header('link', `<${services.publicDocsUrl}/en/docs/authentication>; rel="deprecation"`);
    }
    let key: string;
    try {
      key = extractKey(request);
    } catch (error) {
      // A malformed Authorization header is an invalid key too; a missing key is not.
      if ((error as ApiError).code === 'INVALID_API_KEY')
        services.authFailures?.fail(clientAddressOf(request));
      throw error;
    }
    const wellFormed = isWellFormedKey(key);
    const hash = wellFormed ? hashKey(key) : null;
    // An address that sent too many invalid keys is refused before its key is looked up,
    // unless the key is one this process has already found (a neighbour behind the same NAT
    // keeps working; a guess never reaches the database). The address is only worked out
    // (X-Forwarded-For under TRUST_PROXY) while some address has failed in the current
    // window: a quiet server pays nothing for the throttle.
    const throttle = services.authFailures;
    if (throttle !== null && !throttle.idle && (hash === null || !services.keys.vouchesFor(hash))) {
      const retryAfter = throttle.retryAfter(clientAddressOf(request));
      if (retryAfter > 0) {
        services.metrics.rateLimited('auth_failures');
        throw new ApiError(
          'RATE_LIMITED',
          `Too many requests with an invalid API key came from this address (${throttle.max} per ${throttle.windowSeconds} s): keyed requests from it are refused for the next ${retryAfter} s, except with a key this server has already accepted. Check that your integration sends the whole key it was given, then retry after Retry-After.`,
          { headers: { 'retry-after': String(retryAfter) } },
        );
      }
    }
    // Format and checksum first: garbage never reaches the database.
    if (hash === null) throw invalidKey(request);
    const cached = services.keys.peek(hash);
    if (cached !== undefined) {
      services.metrics.keyCache(true);
      return admit(request, reply, hash, cached);
    }
    services.metrics.keyCache(false);
    return services.keys.load(hash).then((context) => admit(request, reply, hash, context));
  }

  /** INVALID_API_KEY, counted against the client address (AUTH_FAILURE_LIMIT). */
  function invalidKey(request: FastifyRequest): ApiError {
    services.authFailures?.fail(clientAddressOf(request));
    return new ApiError('INVALID_API_KEY', INVALID_KEY_MESSAGE);
  }

  return function authenticateRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    settle(() => identify(request, reply), done);
  };
}

function hasOwn(query: unknown, name: string): boolean {
  return typeof query === 'object' && query !== null && Object.hasOwn(query, name);
}

/**
 * preHandler for keyed routes, after query validation: the query's check against the key's view
 * (the rest of query validation) → membership → organization override → feature flag →
 * permission → the query's checks against the organization's data → quota charge. Synchronous
 * (callback style) unless it must ask the database: an override naming another organization, a
 * query naming a location, or a key with a quota.
 */
export function authorize(services: Services) {
  function check(request: FastifyRequest): Promise<void> | undefined {
    const access = routeOf(request).config.access;
    const principal = request.principal;
    if (!access || !principal) return undefined;
    const query = request.query as never;
    access.checks?.byKey?.(principal.key, query);
    if (!principal.member) {
      throw new ApiError(
        'ORGANIZATION_FORBIDDEN',
        'The user this key belongs to is no longer a member of its organization. Use another key.',
      );
    }
    const organization = principal.organization;
    const override = access.organizationOverride
      ? (request.query as Record<string, string | undefined>).organizationId
      : undefined;
    if (override !== undefined && override !== organization.id) {
      return services.store.getOrganization(override).then((other) => {
        if (!other) {
          throw new ApiError(
            'ORGANIZATION_NOT_FOUND',
            `No organization has the id ${override}. Omit organizationId to use the key’s own organization.`,
            { param: 'organizationId' },
          );
        }
        throw new ApiError(
          'ORGANIZATION_FORBIDDEN',
          'This key cannot access that organization. Omit organizationId to use the key’s own organization.',
          { param: 'organizationId' },
        );
      });
    }
    requireGrants(access, principal.key, organization);
    request.organization = organization;
    const checking = access.checks?.byData?.(services, organization.id, query);
    if (!access.chargesQuota) return checking;
    // One database write per request for a key with a quota: the atomic charge.
    const charge = () =>
      chargeQuota(services, principal)?.then(() => {
        request.quotaCharged = true;
      });
    return checking === undefined ? charge() : checking.then(charge);
  }

  return function authorizeRequest(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    settle(() => check(request), done);
  };
}

/**
 * The feature flag, then the permission, that an access policy asks for (the last checks
 * before the quota charge): FEATURE_DISABLED, INSUFFICIENT_PERMISSIONS. Shared by the routes
 * (through `authorize`) and the MCP tools (mcp/tools.ts), which check them per tool call.
 */
export function requireGrants(
  access: Pick<AccessPolicy, 'feature' | 'permission'>,
  key: ApiKeyRecord,
  organization: Organization,
): void {
  if (access.feature && !organization.features.includes(access.feature)) {
    throw new ApiError(
      'FEATURE_DISABLED',
      `The "${access.feature}" feature is not enabled for this organization. Ask your operator to enable it.`,
    );
  }
  if (access.permission && !key.permissions.includes(access.permission)) {
    throw new ApiError(
      'INSUFFICIENT_PERMISSIONS',
      `This key lacks the "${access.permission}" permission. Ask your operator for a key that has it.`,
    );
  }
}

/**
 * Charges one use of the key's quota (atomic; one database write, only for a key with a
 * quota, else undefined). Rejects with KEY_EXHAUSTED when a concurrent request took the last
 * one.
 */
export function chargeQuota(services: Services, principal: Principal): Promise<void> | undefined {
  if (principal.key.remaining === null) return undefined;
  return services.store.consumeQuota(principal.key.id).then((left) => {
    if (left === null) {
      principal.key.remaining = 0;
      throw new ApiError(
        'KEY_EXHAUSTED',
        'This API key has used its whole quota. Ask your operator for a new key.',
      );
    }
    services.keys.noteRemaining(principal.hash, left);
  });
}

/** Gives back a use charged for a request that then failed on our side (a 5xx). */
export function refundQuota(services: Services, principal: Principal): Promise<void> {
  return services.store.refundQuota(principal.key.id).then(
    // The cache holds the count the charge left (0 after the last use): it must see the
    // refund too, or the given-back use answers KEY_EXHAUSTED until the entry expires.
    (left) => {
      if (left !== null) services.keys.noteRemaining(principal.hash, left);
    },
    () => {},
  );
}
