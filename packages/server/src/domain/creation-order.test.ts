import { describe, expect, it } from 'vitest';
import { byCreation } from './creation-order.js';

describe('creation order', () => {
  it('sorts by creation time, then by id, without touching the input', () => {
    const rows = [
      { id: 'b', createdAt: 2 },
      { id: 'c', createdAt: 1 },
      { id: 'a', createdAt: 2 },
    ];
    expect(byCreation(rows).map((row) => row.id)).toEqual(['c', 'a', 'b']);
    expect(rows.map((row) => row.id)).toEqual(['b', 'c', 'a']);
  });
});
