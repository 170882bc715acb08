import { randomBytes } from 'node:crypto';

/**
 * ObjectId-layout identifiers: 4-byte seconds timestamp, 5 random bytes fixed per process,
 * 3-byte counter. Ids made by one process sort in creation order, which the item list relies on.
 */
const processRandom = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);
let lastSeconds = 0;

export const ID_PATTERN = /^[0-9a-f]{24}$/;

export function newId(now = Date.now()): string {
  // Never let the timestamp go backwards within a process (clock steps), so order holds.
  let seconds = Math.max(Math.floor(now / 1000), lastSeconds);
  counter = (counter + 1) % 0x1000000;
  // A counter that wraps inside one second would sort before its predecessors: move on a second.
  if (counter === 0) seconds = Math.max(seconds, lastSeconds + 1);
  lastSeconds = seconds;
  return (
    seconds.toString(16).padStart(8, '0') + processRandom + counter.toString(16).padStart(6, '0')
  );
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/**
 * A new id greater than `floor` (null: any). Ids of one process sort in creation order, but
 * another process may have made `floor` in the same second with random bytes that sort
 * higher, or with a clock ahead of ours: the id then takes the second after the floor's, so
 * the ids of one organization's items still sort in the order the rows were written (the
 * SQLite search relies on it: item-search.ts). The timestamp is then ahead of the real time
 * by at most that gap; createdAt is stored apart and stays exact.
 */
export function newIdAfter(floor: string | null, now = Date.now()): string {
  const id = newId(now);
  if (floor === null || id > floor) return id;
  const floorSeconds = Number.parseInt(floor.slice(0, 8), 16);
  // (An id of the last second of 2106 has no successor that fits: left as it is.)
  if (floorSeconds >= 0xffffffff) return id;
  lastSeconds = Math.max(lastSeconds, floorSeconds + 1);
  return newId(now);
}
