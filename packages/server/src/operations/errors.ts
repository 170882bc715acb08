import type { ApiKeyRecord, Organization, User } from '../store/types.js';

/**
 * What an operation refused, as data: each surface (CLI, admin API) words it for its own
 * users (a CLI flag, a JSON field) and picks its own code or status.
 */
export type Problem =
  /** No slug was given and the name yields no valid one (e.g. only punctuation). */
  | { code: 'SLUG_UNDERIVABLE'; name: string }
  /** The slug given is malformed, or looks like an id. */
  | { code: 'INVALID_SLUG'; message: string }
  /**
   * An update that changes nothing was asked for; `key` when it is a key's view, set to the
   * view it already has.
   */
  | { code: 'NOTHING_TO_UPDATE'; key?: ApiKeyRecord }
  /** The same feature is to be enabled and disabled at once. */
  | { code: 'FEATURE_CONFLICT'; feature: string }
  /** The organization was deleted by someone else between its lookup and this change. */
  | { code: 'ORGANIZATION_GONE'; organization: Organization }
  /** A user key was asked for a user who does not exist. */
  | { code: 'USER_NOT_FOUND'; ref: string }
  /** A user key was asked for a user who is not a member of the organization. */
  | { code: 'NOT_A_MEMBER'; user: User; organization: Organization }
  /** The user to add is a member already. */
  | { code: 'ALREADY_A_MEMBER'; user: User; organization: Organization }
  /** The user to remove is not a member. */
  | { code: 'MEMBERSHIP_NOT_FOUND'; user: User; organization: Organization }
  /** The key is revoked: it cannot be disabled, enabled or rotated. */
  | {
      code: 'KEY_REVOKED';
      key: ApiKeyRecord;
      action: 'disabled' | 'enabled' | 'rotated' | 'updated';
    }
  /** The organization already has a location with this code. */
  | { code: 'LOCATION_EXISTS'; organization: Organization; location: string }
  /** The organization has no location with this code. */
  | { code: 'LOCATION_NOT_FOUND'; organization: Organization; location: string }
  /** The key was revoked (or deleted) while it was being rotated. */
  | { code: 'KEY_REVOKED_DURING_ROTATION'; id: string };

export type ProblemCode = Problem['code'];

export class OperationError extends Error {
  override name = 'OperationError';

  constructor(readonly problem: Problem) {
    super(`operation refused: ${problem.code}`);
  }
}
