import { describe, expect, it } from 'vitest';
import { inTurns, nextTurn } from './turns.js';

describe('nextTurn', () => {
  it('resumes one waiter per turn of the event loop, in the order they came', async () => {
    // Counts turns: one increment per check phase while the waiters run.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const resumed: Array<{ who: string; turn: number }> = [];
    const worker = async (who: string) => {
      for (let step = 0; step < 3; step++) {
        await nextTurn();
        resumed.push({ who: `${who}${step}`, turn });
      }
    };
    await Promise.all([worker('a'), worker('b'), worker('c')]);
    counting = false;
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
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const items = Array.from({ length: 25 }, (_, i) => i);
    const slices: Array<{ items: number[]; turn: number }> = [];
    for await (const slice of inTurns(items, 10)) slices.push({ items: slice, turn });
    counting = false;
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
