import { describe, expect, it } from 'vitest';
import { nextTurn } from './turns.js';

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
