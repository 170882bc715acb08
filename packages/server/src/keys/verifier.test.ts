import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { countStoreCalls } from '../testing/store-calls.js';
import { generateKey } from './format.js';
import { issueKey } from './issue.js';
import { KeyVerifier } from './verifier.js';

describe('KeyVerifier', () => {
  let dir: string;
  let store: SqliteStore;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-verifier-'));
    store = new SqliteStore(path.join(dir, 'stockroom.db'));
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps real keys cached however many unknown keys are looked up', async () => {
    const org = await store.createOrganization({ name: 'V', slug: 'v', features: [] });
    const real = await Promise.all(
      Array.from({ length: 5 }, () => issueKey(store, { organizationId: org.id })),
    );
    const verifier = new KeyVerifier(store, 60_000, 10, 10);
    const now = Date.now();
    for (const { record } of real)
      expect((await verifier.load(record.hash, now))?.key.id).toBe(record.id);
    // A flood of unknown (well-formed, valid checksum) keys: far more than either map holds.
    for (let i = 0; i < 200; i++) {
      expect(await verifier.load(generateKey('organization').hash, now)).toBeNull();
    }
    const calls = countStoreCalls(store);
    try {
      for (const { record } of real) {
        expect(verifier.peek(record.hash, now)?.key.id).toBe(record.id);
        expect((await verifier.load(record.hash, now))?.key.id).toBe(record.id);
      }
      expect(calls.total()).toBe(0);
    } finally {
      calls.restore();
    }
  });

  it('caches unknown keys too, within their own bound', async () => {
    const verifier = new KeyVerifier(store, 60_000, 10, 3);
    const now = Date.now();
    const unknown = Array.from({ length: 4 }, () => generateKey('user').hash);
    for (const hash of unknown) await verifier.load(hash, now);
    // The oldest unknown key was dropped; the three newest are answered from memory.
    expect(verifier.peek(unknown[0] as string, now)).toBeUndefined();
    for (const hash of unknown.slice(1)) expect(verifier.peek(hash, now)).toBeNull();
  });
});
