import { describe, expect, it } from 'vitest';
import { isId, newId, newIdAfter } from './ids.js';

describe('ids', () => {
  it('sort in creation order within a process', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    expect(ids.every(isId)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('newIdAfter outruns an id another process made in the same second, or ahead of our clock', () => {
    const now = Date.now();
    const seconds = Math.floor(now / 1000)
      .toString(16)
      .padStart(8, '0');
    // Another process's id of this very second, its random bytes sorting above anyone's.
    const sameSecond = `${seconds}ffffffffff000001`;
    const after = newIdAfter(sameSecond, now);
    expect(isId(after)).toBe(true);
    expect(after > sameSecond).toBe(true);
    // A writer whose clock was an hour ahead.
    const ahead = `${(Math.floor(now / 1000) + 3600).toString(16).padStart(8, '0')}0000000000000001`;
    const later = newIdAfter(ahead, now);
    expect(later > ahead).toBe(true);
    expect(Number.parseInt(later.slice(0, 8), 16)).toBe(Math.floor(now / 1000) + 3601);
    // And ids keep sorting in creation order after it.
    expect(newId(now) > later).toBe(true);
    expect(newIdAfter(null, now) > later).toBe(true);
  });
});
