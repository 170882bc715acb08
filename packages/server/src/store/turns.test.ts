import { describe, expect, it } from 'vitest';
import { inTurns, nextTurn } from './turns.js';

/** Counts turns of the event loop, one per check phase, until stopped. */
function countTurns(): { readonly now: number; stop(): void } {
  let turn = 0;
  let counting = true;
  const count = () => {
    turn++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return {
    get now() {
      return turn;
    },
    stop() {
      counting = false;
    },
  };
}

describe('nextTurn', () => {
  it('resumes one waiter per turn of the event loop, in the order they came', async () => {
    const loop = countTurns();
    const resumed: Array<{ who: string; turn: number }> = [];
    const worker = async (who: string) => {
      for (let step = 0; step < 3; step++) {
        await nextTurn();
        resumed.push({ who: `${who}${step}`, turn: loop.now });
      }
    };
    await Promise.all([worker('a'), worker('b'), worker('c')]);
    loop.stop();
    expect(resumed.map((r) => r.who)).toEqual([
      'a0',
      'b0',
      'c0',
      'a1',
      'b1',
      'c1',
      'a2',
      'b2',
      'c2',
    ]);
    const turns = resumed.map((r) => r.turn);
    expect(new Set(turns).size).toBe(turns.length);
  });
});

describe('inTurns', () => {
  it('gives every item once, in order, one slice per turn of the event loop', async () => {
    const loop = countTurns();
    const items = Array.from({ length: 25 }, (_, i) => i);
    const slices: Array<{ items: number[]; turn: number }> = [];
    for await (const slice of inTurns(items, 10)) slices.push({ items: slice, turn: loop.now });
    loop.stop();
    expect(slices.map((s) => s.items)).toEqual([
      items.slice(0, 10),
      items.slice(10, 20),
      items.slice(20),
    ]);
    const turns = slices.map((s) => s.turn);
    expect(new Set(turns).size).toBe(turns.length);
  });

  it('gives nothing for no items', async () => {
    const slices: number[][] = [];
    for await (const slice of inTurns<number>([], 10)) slices.push(slice);
    expect(slices).toEqual([]);
  });
});
