import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, ChunkPool } from './chunk-pool.js';

describe('ChunkPool', () => {
  it('hands back the chunks it was given before making new ones', () => {
    const pool = new ChunkPool(4 * CHUNK_BYTES);
    const first = pool.take();
    expect(first.length).toBe(CHUNK_BYTES);
    pool.give([first]);
    expect(pool.idleBytes).toBe(CHUNK_BYTES);
    expect(pool.take()).toBe(first);
    expect(pool.take()).not.toBe(first);
  });

  it('keeps no more than its bound between bursts', () => {
    const pool = new ChunkPool(2 * CHUNK_BYTES);
    pool.give([pool.take(), pool.take(), pool.take()]);
    expect(pool.idleBytes).toBe(2 * CHUNK_BYTES);
  });

  it('never makes a chunk out of a shared buffer', () => {
    const chunk = new ChunkPool(0).take();
    expect(chunk.byteOffset).toBe(0);
    expect(chunk.buffer.byteLength).toBe(CHUNK_BYTES);
  });
});
