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

/** KEY is a key id (the key itself is never stored, so it cannot be looked up by). */
export async function lookupKey(store: Store, id: string): Promise<ApiKeyRecord> {
  const key = await store.getApiKey(id);
  if (!key) {
    throw new CliError(
      'KEY_NOT_FOUND',
      `no key with id ${id}; see \`stockroom key list --org ORG\``,
    );
  }
  return key;
}
