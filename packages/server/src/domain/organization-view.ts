import type { Organization, User } from '../store/types.js';
import { iso } from '../time.js';

/** What an operator is shown of an organization, by the CLI and the admin API alike. */
export function organizationView(organization: Organization) {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    features: organization.features,
    createdAt: iso(organization.createdAt),
  };
}

/** A member as listed under its organization: no more than who they are. */
export function memberView(member: User) {
  return { id: member.id, email: member.email, name: member.name };
}
