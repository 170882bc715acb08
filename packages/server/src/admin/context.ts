import type { FastifyRequest } from 'fastify';
import { clientAddressOf } from '../http/client-address.js';
import { isId } from '../ids.js';
import { type Actor, adminActor } from '../operations/audit.js';
import type { Problem } from '../operations/errors.js';
import type { ApiKeyRecord, Organization, Store } from '../store/types.js';
import { AdminError, invalid } from './errors.js';

/** What the admin routes share: lookups in the admin API's words, the actor, the views. */

/** Who made the change: `admin-api:<client address>`, with the request id in the details. */
export function actorOf(request: FastifyRequest): Actor {
  return adminActor(clientAddressOf(request), request.id);
}

/** ORG in a path: an organization id or slug, as in the CLI. */
export async function findOrganization(store: Store, ref: string): Promise<Organization> {
  // Ids and slugs are lowercase letters, digits and dashes: anything else names nothing, and
  // is not sent to the database.
  const organization = /^[a-z0-9-]{1,63}$/.test(ref) ? await store.findOrganization(ref) : null;
  if (!organization) {
    throw new AdminError(
      'ORGANIZATION_NOT_FOUND',
      `No organization with id or slug ${JSON.stringify(ref.slice(0, 63))}; list them with GET /admin/v1/organizations.`,
      { param: 'org' },
    );
  }
  return organization;
}

/** A key of the organization in the path; another organization's key is not found. */
export async function findKey(
  store: Store,
  organization: Organization,
  id: string,
): Promise<ApiKeyRecord> {
  if (!isId(id)) {
    throw invalid(
      'keyId',
      `keyId must be a key id: 24 lowercase hex characters, got ${JSON.stringify(id.slice(0, 40))}.`,
    );
  }
  const key = await store.getApiKey(id);
  if (!key || key.organizationId !== organization.id) {
    throw new AdminError(
      'KEY_NOT_FOUND',
      `No key with id ${id} in the organization ${organization.slug}; list its keys with GET /admin/v1/organizations/${organization.slug}/keys.`,
      { param: 'keyId' },
    );
  }
  return key;
}

/** A refused operation in the admin API's words: a code, a status and the field at fault. */
export function problemError(problem: Problem): AdminError {
  switch (problem.code) {
    case 'SLUG_UNDERIVABLE':
      return invalid(
        'slug',
        `Cannot derive a slug from the name ${JSON.stringify(problem.name)}: it has no letters or digits in ASCII. Send a slug.`,
      );
    case 'INVALID_SLUG':
      return invalid('slug', `${problem.message}.`);
    case 'NOTHING_TO_UPDATE':
      if (problem.key) {
        return invalid(
          'view',
          problem.key.view === null
            ? `The key ${problem.key.id} has no view already; nothing was changed.`
            : `The key ${problem.key.id} already has this view; nothing was changed.`,
        );
      }
      return invalid('body', 'Nothing to update: send name, enableFeatures or disableFeatures.');
    case 'FEATURE_CONFLICT':
      return invalid(
        'disableFeatures',
        `Cannot both enable and disable the feature ${JSON.stringify(problem.feature)}.`,
      );
    case 'ORGANIZATION_GONE':
      return new AdminError(
        'ORGANIZATION_NOT_FOUND',
        `The organization ${problem.organization.id} was deleted while this request ran.`,
        { param: 'org' },
      );
    case 'USER_NOT_FOUND':
      return new AdminError(
        'USER_NOT_FOUND',
        `No user with id or email ${JSON.stringify(problem.ref.slice(0, 254))}; add one with \`stockroom user create\`.`,
        { param: 'user' },
      );
    case 'NOT_A_MEMBER': {
      const { user, organization } = problem;
      return new AdminError(
        'NOT_A_MEMBER',
        `${user.email} is not a member of ${organization.slug}; add them with \`stockroom user create --org ${organization.slug} --email ${user.email}\`.`,
        { param: 'user' },
      );
    }
    // No admin route adds or removes members yet; the words are ready for one.
    case 'ALREADY_A_MEMBER':
      return new AdminError(
        'CONFLICT',
        `${problem.user.email} is already a member of ${problem.organization.slug}.`,
        { param: 'email' },
      );
    case 'MEMBERSHIP_NOT_FOUND':
      return new AdminError(
        'NOT_A_MEMBER',
        `${problem.user.email} is not a member of ${problem.organization.slug}.`,
        { param: 'user' },
      );
    case 'KEY_REVOKED':
      return new AdminError(
        'KEY_REVOKED',
        `The key ${problem.key.id} is revoked and cannot be ${problem.action}; revocation is permanent: create a new key.`,
        { param: 'keyId' },
      );
    case 'LOCATION_EXISTS':
      return new AdminError(
        'CONFLICT',
        `The organization ${problem.organization.slug} already has a location with code ${JSON.stringify(problem.location)}; codes are unique in an organization.`,
      );
    case 'LOCATION_NOT_FOUND':
      return new AdminError(
        'LOCATION_NOT_FOUND',
        `The organization ${problem.organization.slug} has no location with code ${JSON.stringify(problem.location.slice(0, 40))} (codes are case-sensitive); list them with GET /admin/v1/organizations/${problem.organization.id}/locations.`,
      );
    case 'KEY_REVOKED_DURING_ROTATION':
      return new AdminError(
        'KEY_REVOKED',
        `The key ${problem.id} was revoked while it was being rotated.`,
        { param: 'keyId' },
      );
  }
}
