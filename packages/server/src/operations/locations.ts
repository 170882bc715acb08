import {
  type Location,
  type Organization,
  type Store,
  StoreConflictError,
} from '../store/types.js';
import { type Actor, recordAudit } from './audit.js';
import { OperationError } from './errors.js';

/**
 * Locations of an organization (issue 31): create one, remove one (its stock rows go, and each
 * item that had one changes). Callers resolve the organization and check the code and name
 * with domain/location.ts first.
 */

export async function createLocation(
  store: Store,
  actor: Actor,
  organization: Organization,
  input: { code: string; name: string },
): Promise<Location> {
  let location: Location;
  try {
    location = await store.createLocation(organization.id, input);
  } catch (error) {
    if (error instanceof StoreConflictError) {
      throw new OperationError({ code: 'LOCATION_EXISTS', organization, location: input.code });
    }
    throw error;
  }
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'location.created',
    target: location.id,
    details: { code: location.code, name: location.name },
  });
  return location;
}

/** Removes the location; returns how many items changed (they had a stock row there). */
export async function removeLocation(
  store: Store,
  actor: Actor,
  organization: Organization,
  code: string,
): Promise<{ location: Location; items: number }> {
  const location = await store.findLocation(organization.id, code);
  const removal = location ? await store.deleteLocation(organization.id, code) : null;
  if (!location || !removal) {
    throw new OperationError({ code: 'LOCATION_NOT_FOUND', organization, location: code });
  }
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'location.removed',
    target: location.id,
    details: { code, itemsChanged: removal.items },
  });
  return { location, items: removal.items };
}
