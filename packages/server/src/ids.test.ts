import { afterEach, describe, expect, it, vi } from 'vitest';
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

/** The three parts of an id (docs/architecture.md#identifiers): seconds, per-process random, counter. */
function parts(id: string) {
  return {
    seconds: Number.parseInt(id.slice(0, 8), 16),
    random: id.slice(8, 18),
    counter: Number.parseInt(id.slice(18), 16),
  };
}

/** The ids module as a new process loads it: its own random bytes, counter and clock floor. */
async function freshProcess(): Promise<typeof import('./ids.js')> {
  vi.resetModules();
  return import('./ids.js');
}

afterEach(() => {
  vi.doUnmock('node:crypto');
  vi.resetModules();
});

describe('the ObjectId layout of ids', () => {
  it('is 24 lowercase hex characters', async () => {
    const ids = await freshProcess();
    const id = ids.newId();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(ids.isId(id)).toBe(true);
    expect(ids.isId(id.toUpperCase())).toBe(false);
  });

  it('starts with the creation time in seconds (4 bytes, big-endian)', async () => {
    const ids = await freshProcess();
    const now = Date.now() + 789;
    expect(parts(ids.newId(now)).seconds).toBe(Math.floor(now / 1000));
    expect(ids.newId(now).slice(0, 8)).toBe(
      Math.floor(now / 1000)
        .toString(16)
        .padStart(8, '0'),
    );
  });

  it('carries 5 random bytes fixed for the process, whatever the time', async () => {
    const ids = await freshProcess();
    const a = parts(ids.newId(Date.now()));
    const b = parts(ids.newId(Date.now() + 7_200_000));
    expect(b.seconds).toBeGreaterThan(a.seconds);
    expect(b.random).toBe(a.random);
  });

  it('gives another process other random bytes', async () => {
    const one = parts((await freshProcess()).newId()).random;
    const other = parts((await freshProcess()).newId()).random;
    expect(other).not.toBe(one);
  });

  it('ends with a 3-byte counter that goes up by one per id', async () => {
    const ids = await freshProcess();
    const now = Date.now();
    const made = Array.from({ length: 5 }, () => parts(ids.newId(now)));
    for (let i = 1; i < made.length; i++) {
      expect(made[i]?.counter).toBe(((made[i - 1]?.counter as number) + 1) % 0x1000000);
      expect(made[i]?.seconds).toBe(made[0]?.seconds);
    }
  });

  it('sorts in creation order, even when the clock steps back', async () => {
    const ids = await freshProcess();
    const now = Date.now();
    const made = [
      ids.newId(now),
      ids.newId(now - 5000),
      ids.newId(now - 60_000),
      ids.newId(now + 1000),
    ];
    expect([...made].sort()).toEqual(made);
  });

  it('moves on a second when the counter wraps, so order still holds', async () => {
    // A process whose counter starts one short of the top: its second id wraps to 0.
    vi.doMock('node:crypto', async (original) => ({
      ...(await original<typeof import('node:crypto')>()),
      randomBytes: (size: number) =>
        Buffer.from(size === 3 ? [0xff, 0xff, 0xfe] : [0x12, 0x34, 0x56, 0x78, 0x9a]),
    }));
    const ids = await freshProcess();
    const now = Date.now();
    const first = ids.newId(now);
    const second = ids.newId(now);
    expect(parts(first)).toEqual({
      seconds: Math.floor(now / 1000),
      random: '123456789a',
      counter: 0xffffff,
    });
    expect(parts(second)).toEqual({
      seconds: Math.floor(now / 1000) + 1,
      random: '123456789a',
      counter: 0,
    });
    expect(second > first).toBe(true);
  });
});
