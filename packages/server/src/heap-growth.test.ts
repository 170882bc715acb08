import { describe, expect, it } from 'vitest';
import { heapGrowthFlag, SERVER_HEAP_GROWING_PERCENT } from './heap-growth.js';

/**
 * The flag's choice, in process. That it takes effect in a running server is checked in
 * heap-growth.e2e.test.ts; how much lower the old generation peaks with it is measured by
 * `npm run bench:heap` (bench/heap-growth.js).
 */
describe('heapGrowthFlag', () => {
  it('asks V8 to grow the old generation to twice the live set', () => {
    expect(SERVER_HEAP_GROWING_PERCENT).toBe(100);
    expect(heapGrowthFlag([])).toBe('--heap-growing-percent=100');
    expect(heapGrowthFlag(['--enable-source-maps'])).toBe('--heap-growing-percent=100');
  });

  it('leaves the choice to an operator who made one on the command line', () => {
    expect(heapGrowthFlag(['--heap-growing-percent=300'])).toBeNull();
    expect(heapGrowthFlag(['--heap_growing_percent=50'])).toBeNull();
    expect(heapGrowthFlag(['--heap-growing-percent', '50'])).toBeNull();
    // Another flag that merely starts the same way is not that choice.
    expect(heapGrowthFlag(['--heap-growing-percentage=5'])).toBe('--heap-growing-percent=100');
  });
});
