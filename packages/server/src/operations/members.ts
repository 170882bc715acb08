import { type Organization, type Store, StoreConflictError, type User } from '../store/types.js';
import { type Actor, recordAudit } from './audit.js';
import { OperationError } from './errors.js';

/**
 * Membership changes: a user joins an organization (created on first use of the email) or
 * leaves it. Callers resolve the organization and, to remove, the user first.
 */

export interface NewMember {
  /** Already checked: an email address (unique, case-insensitive). */
  email: string;
  /** Used only when the user is new. */
  name: string | null;
}

/** Adds the user with this email to the organization, creating the user when there is none. */
export async function addMember(
  store: Store,
  actor: Actor,
  organization: Organization,
  input: NewMember,
): Promise<{ member: User; created: boolean }> {
  let member = await store.findUser(input.email);
  let created = false;
  if (member) {
    if (await store.isMember(organization.id, member.id)) {
      throw new OperationError({ code: 'ALREADY_A_MEMBER', user: member, organization });
    }
  } else {
    try {
      member = await store.createUser({ email: input.email, name: input.name });
      created = true;
    } catch (error) {
      // Another process created the same email in between: join that user instead.
      if (!(error instanceof StoreConflictError)) throw error;
      member = await store.findUser(input.email);
      if (!member) throw new OperationError({ code: 'USER_NOT_FOUND', ref: input.email });
    }
  }
  await store.addMember(organization.id, member.id);
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'member.added',
    target: member.id,
    details: { email: member.email, userCreated: created },
  });
  return { member, created };
}

/** Removes the user from the organization; their keys for it are refused from then on. */
export async function removeMember(
  store: Store,
  actor: Actor,
  organization: Organization,
  member: User,
): Promise<void> {
  if (!(await store.removeMember(organization.id, member.id))) {
    throw new OperationError({ code: 'MEMBERSHIP_NOT_FOUND', user: member, organization });
  }
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'member.removed',
    target: member.id,
    details: { email: member.email },
  });
}
