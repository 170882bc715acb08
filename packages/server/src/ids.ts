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
