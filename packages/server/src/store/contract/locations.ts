/** Locations of an organization (issue 31): where its items' stock is kept. */

export interface Location {
  id: string;
  organizationId: string;
  /** 1–32 characters of [A-Za-z0-9._-], unique in the organization, case-sensitive. */
  code: string;
  name: string;
  createdAt: number;
}

/** What removing a location did: the items that had a stock row there changed. */
export interface LocationRemoval {
  items: number;
}

/** An organization's locations. Stock rows themselves are written with the items (writeItems). */
export interface LocationStore {
  /** Throws StoreConflictError when the organization already has a location with this code. */
  createLocation(organizationId: string, input: { code: string; name: string }): Promise<Location>;
  /** Ordered by code. */
  listLocations(organizationId: string): Promise<Location[]>;
  findLocation(organizationId: string, code: string): Promise<Location | null>;
  /**
   * Removes a location and its stock rows in one transaction: each item that had a row there
   * changes (its stock loses the entry, its quantity becomes the sum of the rows left, or 0 when
   * none is left), with a new updatedAt and change number. Null when there was no such location.
   */
  deleteLocation(organizationId: string, code: string): Promise<LocationRemoval | null>;
}
