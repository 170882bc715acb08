import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { resolveWorkers } from './cluster.js';
import { loadConfig } from './config.js';

const PG = 'postgres://postgres@127.0.0.1:5432/test';

describe('scale-out settings', () => {
  it('reads DATABASE_POOL_SIZE and DATABASE_TIMEOUT_MS, refusing nonsense by name', () => {
    expect(loadConfig({})).toMatchObject({ databasePoolSize: 10, databaseTimeoutMs: 5000 });
    expect(loadConfig({ DATABASE_POOL_SIZE: '4', DATABASE_TIMEOUT_MS: '250' })).toMatchObject({
      databasePoolSize: 4,
      databaseTimeoutMs: 250,
    });
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => loadConfig({ DATABASE_TIMEOUT_MS: '5s' })).toThrow(/DATABASE_TIMEOUT_MS/);
  });

  it('runs N workers on either engine; auto is one per core on both', () => {
    expect(resolveWorkers(loadConfig({ DATABASE_URL: PG, WORKERS: '4' }))).toBe(4);
    expect(resolveWorkers(loadConfig({ WORKERS: '4' }))).toBe(4);
    expect(resolveWorkers(loadConfig({ DATABASE_URL: PG, WORKERS: 'auto' }))).toBe(
      os.availableParallelism(),
    );
    expect(resolveWorkers(loadConfig({ WORKERS: 'auto' }))).toBe(os.availableParallelism());
    expect(resolveWorkers(loadConfig({ WORKERS: '1' }))).toBe(1);
  });
});
