import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../keys/issue.js';
import { createCliSandbox, expectSuccess } from '../testing/cli-harness.js';
import { startServeProcess } from '../testing/serve-process.js';

/**
 * `stockroom org delete` beside a running `stockroom serve`, a process of its own: the e2e tier.
 * The command's other rules are org.test.ts's.
 */

describe('stockroom org delete', () => {
  const box = createCliSandbox();
  afterAll(() => box.cleanup());
  const migrated = (async () => {
    const store = box.store();
    await store.migrate();
    return store;
  })();

  /** An organization with two items, a key, a revoked key and a member (also in `kept`). */
  async function arrange(slug: string) {
    const store = await migrated;
    const organization = await store.createOrganization({
      name: `Org ${slug}`,
      slug,
      features: ['inventory'],
    });
    await store.writeItems(organization.id, [
      { sku: `${slug}-1`, name: 'Tent' },
      { sku: `${slug}-2`, name: 'Lamp' },
    ]);
    const member =
      (await store.findUser('member@example.com')) ??
      (await store.createUser({ email: 'member@example.com', name: 'Member' }));
    await store.addMember(organization.id, member.id);
    const key = await issueKey(store, { organizationId: organization.id });
    const revoked = await issueKey(store, { organizationId: organization.id });
    await store.revokeApiKey(revoked.record.id);
    return { organization, member, key };
  }

  let kept: Awaited<ReturnType<typeof arrange>>;
  beforeAll(async () => {
    kept = await arrange('kept');
  });

  it("a running server refuses the deleted organization's key within one second", async () => {
    const { organization, key } = await arrange('served');
    const server = await startServeProcess({ DATABASE_URL: box.dbPath });
    try {
      const items = (secret: string) =>
        fetch(`${server.apiUrl}/api/v1/inventory/items?limit=1`, {
          headers: { 'x-api-key': secret },
        });
      expect((await items(key.key)).status).toBe(200);
      expect((await items(kept.key.key)).status).toBe(200);
      expectSuccess(await box.run(['org', 'delete', organization.id, '--confirm']));
      // The deletion is committed once the command has exited: poll from here.
      const deadline = Date.now() + 1000;
      let response = await items(key.key);
      while (response.status === 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        response = await items(key.key);
      }
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'INVALID_API_KEY',
      );
      expect((await items(kept.key.key)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
