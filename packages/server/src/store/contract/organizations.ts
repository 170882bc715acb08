/** Organizations, users and memberships. */

export interface Organization {
  id: string;
  name: string;
  slug: string;
  features: string[];
  createdAt: number;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
  createdAt: number;
}

/** What deleting an organization removed with it. */
export interface OrganizationDeletion {
  items: number;
  apiKeys: number;
  memberships: number;
}

/** Organizations, users and their memberships. */
export interface OrganizationStore {
  createOrganization(input: {
    name: string;
    slug: string;
    features: string[];
  }): Promise<Organization>;
  getOrganization(id: string): Promise<Organization | null>;
  /** By id or slug. */
  findOrganization(ref: string): Promise<Organization | null>;
  listOrganizations(): Promise<Organization[]>;
  countOrganizations(): Promise<number>;
  updateOrganization(
    id: string,
    patch: { name?: string; features?: string[] },
  ): Promise<Organization>;

  createUser(input: { email: string; name: string | null }): Promise<User>;
  /** By id or email (case-insensitive). */
  findUser(ref: string): Promise<User | null>;
  addMember(organizationId: string, userId: string): Promise<void>;
  /** Returns false when the user was not a member. */
  removeMember(organizationId: string, userId: string): Promise<boolean>;
  isMember(organizationId: string, userId: string): Promise<boolean>;
  listMembers(organizationId: string): Promise<User[]>;
  /**
   * Deletes an organization with its items, keys, memberships and webhooks (users, who may
   * belong to other organizations, and the audit log stay). Null when it did not exist. An
   * engine whose writers share one lock (SQLite) deletes the items in parts first and the
   * organization last: a delete cut short leaves fewer items, and deleting again finishes.
   */
  deleteOrganization(id: string): Promise<OrganizationDeletion | null>;
}
