import { afterEach, describe, expect, it, vi } from 'vitest';
import { isId, newId } from './ids.js';

/** The three parts of an id (DECISIONS.md): seconds, per-process random, counter. */
function parts(id: string) {
  return {
    seconds: Number.parseInt(id.slice(0, 8), 16),
    random: id.slice(8, 18),
    counter: Number.parseInt(id.slice(18), 16),
  };
}

afterEach(() => {
  vi.doUnmock('node:crypto');
  vi.resetModules();
});

describe('newId', () => {
  it('is 24 lowercase hex characters', () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(isId(id)).toBe(true);
    expect(isId(id.toUpperCase())).toBe(false);
  });

  it('starts with the creation time in seconds (4 bytes, big-endian)', () => {
    // Later than any id made so far in this process, so the clock-step guard does not apply.
    const now = Date.now() + 3_600_000 + 789;
    expect(parts(newId(now)).seconds).toBe(Math.floor(now / 1000));
    expect(newId(now).slice(0, 8)).toBe(
      Math.floor(now / 1000)
        .toString(16)
        .padStart(8, '0'),
    );
  });

  it('carries 5 random bytes fixed for the process, whatever the time', () => {
    const a = parts(newId(Date.now() + 7_200_000));
    const b = parts(newId(Date.now() + 9_000_000));
    expect(b.seconds).toBeGreaterThan(a.seconds);
    expect(b.random).toBe(a.random);
  });

  it('gives another process (a fresh module) other random bytes', async () => {
    vi.resetModules();
    const other = await import('./ids.js');
    expect(parts(other.newId()).random).not.toBe(parts(newId()).random);
  });

  it('ends with a 3-byte counter that goes up by one per id', () => {
    const now = Date.now() + 10_000_000;
    const ids = Array.from({ length: 5 }, () => parts(newId(now)));
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i]?.counter).toBe(((ids[i - 1]?.counter as number) + 1) % 0x1000000);
      expect(ids[i]?.seconds).toBe(ids[0]?.seconds);
    }
  });

  it('sorts in creation order, even when the clock steps back', () => {
    const now = Date.now() + 20_000_000;
    const made = [newId(now), newId(now - 5000), newId(now - 60_000), newId(now + 1000)];
    expect([...made].sort()).toEqual(made);
  });

  it('moves on a second when the counter wraps, so order still holds', async () => {
    vi.resetModules();
    // A process whose counter starts one short of the top: its second id wraps to 0.
    vi.doMock('node:crypto', async (original) => ({
      ...(await original<typeof import('node:crypto')>()),
      randomBytes: (size: number) =>
        Buffer.from(size === 3 ? [0xff, 0xff, 0xfe] : [0x12, 0x34, 0x56, 0x78, 0x9a]),
    }));
    const fresh = await import('./ids.js');
    const now = Date.now();
    const first = fresh.newId(now);
    const second = fresh.newId(now);
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
