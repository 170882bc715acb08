import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_TOKEN_SECRET } from '../api/sync-signing.js';
import { createCliSandbox, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

describe('stockroom sync-secret rotate', () => {
  beforeAll(async () => {
    expectSuccess(await run(['migrate']));
  });

  it('replaces the key that signs sync tokens with a new random one', async () => {
    const store = sandbox.store();
    const before = await store.installationSecret(SYNC_TOKEN_SECRET, 'first');
    expect(before).toBe('first');
    const rotated = await run(['sync-secret', 'rotate', '--json']);
    expectSuccess(rotated, { json: true });
    expect(rotated.json.rotatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const after = await store.installationSecret(SYNC_TOKEN_SECRET, 'unused');
    // 32 random bytes in base64url, and another each time.
    expect(after).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(after).not.toBe(before);
    const human = await run(['sync-secret', 'rotate']);
    expectSuccess(human);
    expect(human.stdout).toMatch(/Restart every server process/);
    expect(await store.installationSecret(SYNC_TOKEN_SECRET, 'unused')).not.toBe(after);
  });
});
