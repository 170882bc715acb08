/**
 * Creation order, oldest first, as every listing shows organizations and keys. Ids sort by
 * creation only within one process, and every CLI call is a new process, so the millisecond
 * timestamp leads and the id breaks ties.
 */
export function byCreation<T extends { id: string; createdAt: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
}
