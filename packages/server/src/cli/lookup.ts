import { byCreation } from '../domain/creation-order.js';
import { keyState } from '../domain/key-state.js';
import { isId } from '../ids.js';
import { displayPrefix, hashKey, isWellFormedKey } from '../keys/format.js';
import type { ApiKeyRecord, Organization, Store, User } from '../store/types.js';
import { CliError } from './errors.js';

/** ORG is an organization id or slug. */
export async function lookupOrganization(store: Store, ref: string): Promise<Organization> {
  const organization = await store.findOrganization(ref);
  if (!organization) {
    throw new CliError(
      'ORGANIZATION_NOT_FOUND',
      `no organization with id or slug ${JSON.stringify(ref)}; see \`stockroom org list\``,
    );
  }
  return organization;
}

/** USER is a user id or email (case-insensitive). */
export async function lookupUser(store: Store, ref: string): Promise<User> {
  const user = await store.findUser(ref);
  if (!user)
    throw new CliError('USER_NOT_FOUND', `no user with id or email ${JSON.stringify(ref)}`);
  return user;
}

/** A key's display prefix as logs and `auth/verify` show it: `sr_org_AbC1`. */
export const KEY_PREFIX = /^sr_(?:org|usr)_[0-9A-Za-z]{4}$/;

/**
 * KEY is a key id, a key's display prefix (`sr_org_AbC1`, as logs, `key list` and
 * `auth/verify` show it) or the key itself, which is never stored: it is found by its hash
 * and never echoed back. A prefix is looked up among every organization's keys (the operator
 * sees them all); when it matches several, the one not revoked wins, and if that is still
 * more than one the error lists them by id.
 */
export async function lookupKey(store: Store, ref: string): Promise<ApiKeyRecord> {
  if (isId(ref)) {
    const key = await store.getApiKey(ref);
    if (!key) {
      throw new CliError(
        'KEY_NOT_FOUND',
        `no key with id ${ref}; see \`stockroom key list --org ORG\``,
      );
    }
    return key;
  }
  if (isWellFormedKey(ref)) {
    const found = await store.loadKeyContext(hashKey(ref));
    if (!found) {
      throw new CliError(
        'KEY_NOT_FOUND',
        `no key (or only a revoked one) has the secret ${displayPrefix(ref)}…; see \`stockroom key list --org ORG\``,
      );
    }
    return found.key;
  }
  return lookupKeyByPrefix(store, ref);
}

async function lookupKeyByPrefix(store: Store, prefix: string): Promise<ApiKeyRecord> {
  const matches: Array<{ key: ApiKeyRecord; organization: Organization }> = [];
  for (const organization of await store.listOrganizations()) {
    for (const key of await store.listApiKeys(organization.id)) {
      if (key.prefix === prefix) matches.push({ key, organization });
    }
  }
  if (matches.length === 0) {
    throw new CliError(
      'KEY_NOT_FOUND',
      `no key has the prefix ${prefix} (prefixes are case-sensitive); see \`stockroom key list --org ORG\``,
    );
  }
  const live = matches.filter(({ key }) => key.revokedAt === null);
  const [only] = live.length === 1 ? live : matches.length === 1 ? matches : [];
  if (only) return only.key;
  const listed = byCreation(matches.map(({ key }) => key))
    .map((key) => {
      const organization = matches.find((m) => m.key === key)?.organization;
      return `${key.id} (${organization?.slug ?? key.organizationId}, ${JSON.stringify(key.name)}, ${keyState(key)})`;
    })
    .join(', ');
  throw new CliError(
    'KEY_AMBIGUOUS',
    `the prefix ${prefix} matches ${matches.length} keys: ${listed}; pass the key id instead`,
  );
}
