import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { issueKey } from '../keys/issue.js';
import { startServer } from '../server.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import type { Item, Store } from '../store/types.js';
import { type CliSandbox, createCliSandbox } from '../testing/cli-harness.js';
import { createTestSchema, holdLocks, type TestSchema } from '../testing/postgres.js';
import { announceSkip, postgresUnavailable } from '../testing/services.js';

/**
 * `stockroom db copy` through the real binary (built by `npm test`): an embedded database with
 * every kind of row goes into a PostgreSQL schema, keys keep working there, a rerun changes
 * nothing, an interrupted copy completes when run again, and a foreign target is refused.
 */
const skip = announceSkip('db copy to PostgreSQL', await postgresUnavailable());

async function allItems(store: Store, organizationId: string): Promise<Item[]> {
  const items: Item[] = [];
  for (;;) {
    const last = items[items.length - 1];
    const page = await store.listItems(organizationId, {
      limit: 1000,
      ...(last ? { afterId: last.id } : {}),
    });
    items.push(...page);
    if (page.length < 1000) return items;
  }
}

describe('db copy: usage', () => {
  let sandbox: CliSandbox;
  beforeAll(() => {
    sandbox = createCliSandbox();
  });
  afterAll(() => sandbox.cleanup());

  it('needs a postgres:// target and a SQLite source that exists', async () => {
    const noTarget = await sandbox.run(['db', 'copy', '--to', 'mysql://x']);
    expect(noTarget.status).toBe(2);
    expect(noTarget.stderr).toMatch(/postgres:\/\//);
    const pgSource = await sandbox.run(['db', 'copy', '--to', 'postgres://x/y'], {
      env: { DATABASE_URL: 'postgres://a/b' },
    });
    expect(pgSource.status).toBe(2);
    expect(pgSource.stderr).toMatch(/SQLite/);
    const missing = await sandbox.run(['db', 'copy', '--to', 'postgres://x/y', '--json']);
    expect(missing.status).toBe(1);
    expect(missing.json.error.message).toMatch(/no SQLite database/);
  });
});

describe.skipIf(skip)('db copy to PostgreSQL', () => {
  let sandbox: CliSandbox;
  let schema: TestSchema;
  let source: Store;
  let target: PostgresStore;
  let orgIds: string[];
  let userKey: string;

  beforeAll(async () => {
    sandbox = createCliSandbox();
    schema = await createTestSchema();
    source = sandbox.store();
    await source.migrate();
    const acme = await source.createOrganization({
      name: 'Acme',
      slug: 'acme',
      features: ['inventory'],
    });
    const other = await source.createOrganization({ name: 'Other', slug: 'other', features: [] });
    orgIds = [acme.id, other.id];
    const ada = await source.createUser({ email: 'Ada@example.test', name: 'Ada' });
    const bob = await source.createUser({ email: 'bob@example.test', name: null });
    await source.addMember(acme.id, ada.id);
    await source.addMember(other.id, bob.id);
    userKey = (
      await issueKey(source, {
        organizationId: acme.id,
        userId: ada.id,
        remaining: 7,
        rateLimit: { max: 5, windowSeconds: 60 },
      })
    ).key;
    const disabled = await issueKey(source, { organizationId: acme.id, permissions: [] });
    await source.setApiKeyEnabled(disabled.record.id, false);
    const revoked = await issueKey(source, { organizationId: other.id, expiresAt: Date.now() });
    await source.revokeApiKey(revoked.record.id);
    await source.recordKeyUse(new Map([[disabled.record.id, 1_700_000_000_123]]));
    await source.writeItems(
      acme.id,
      [
        {
          sku: 'CBT-1',
          name: 'Crème Brûlée Torch',
          description: 'ÉCLAIRS',
          barcode: '4006381333931',
          status: 'Active',
          quantity: 2.5,
          customFields: '{"z":1,"a":{"nested":[1,"two",null]},"m":"ünïcode"}',
        },
        { name: 'No sku, 100% literal_' },
        ...Array.from({ length: 2345 }, (_, i) => ({ sku: `BULK-${i}`, name: `Bulk ${i}` })),
      ],
      { now: 1_700_000_000_000 },
    );
    await source.writeItems(other.id, [{ sku: 'CBT-1', name: 'Same sku elsewhere' }]);
    target = new PostgresStore(schema.url);
  });
  afterAll(async () => {
    await target?.close();
    await schema?.drop();
    sandbox?.cleanup();
  });

  it('copies everything, verifies the counts, and keys keep working on PostgreSQL', async () => {
    const run = await sandbox.run([
      'db',
      'copy',
      '--to',
      schema.url,
      '--batch-size',
      '500',
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.json).toMatchObject({
      copied: { organizations: 2, users: 2, memberships: 2, apiKeys: 3, items: 2348 },
      verified: true,
    });

    expect(await target.listOrganizations()).toEqual(await source.listOrganizations());
    for (const orgId of orgIds) {
      expect(await target.listApiKeys(orgId)).toEqual(await source.listApiKeys(orgId));
      expect(await target.listMembers(orgId)).toEqual(await source.listMembers(orgId));
      expect(await allItems(target, orgId)).toEqual(await allItems(source, orgId));
    }
    // Search text is rebuilt for PostgreSQL: the same needles find the same items.
    const [acme] = orgIds as [string];
    for (const needle of ['crème', '100%', '_', 'bulk 234']) {
      expect(await target.listItems(acme, { limit: 50, search: needle })).toEqual(
        await source.listItems(acme, { limit: 50, search: needle }),
      );
    }

    // A server on the copy accepts the key minted on SQLite, with its quota left.
    const server = await startServer(
      loadConfig({
        DATABASE_URL: schema.url,
        PORT: '0',
        DOCS_PORT: '0',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
      }),
    );
    try {
      const response = await fetch(`${server.apiUrl}/api/v1/inventory/items?search=cr%C3%A8me`, {
        headers: { 'x-api-key': userKey },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: Array<{ sku: string }> };
      expect(body.data.map((item) => item.sku)).toEqual(['CBT-1']);
      const verify = await fetch(`${server.apiUrl}/api/v1/auth/verify`, {
        headers: { 'x-api-key': userKey },
      });
      expect(((await verify.json()) as { key: { remaining: number } }).key.remaining).toBe(6);
    } finally {
      await server.close();
    }
  });

  it('is safe to run again: the same rows, nothing doubled', async () => {
    const before = await allItems(target, orgIds[0] as string);
    const run = await sandbox.run(['db', 'copy', '--to', schema.url, '--json']);
    expect(run.status).toBe(0);
    expect(run.json.copied.items).toBe(2348);
    expect(await allItems(target, orgIds[0] as string)).toEqual(before);
  });

  it('completes a copy that failed halfway when run again', async () => {
    const fresh = await createTestSchema();
    try {
      const setup = new PostgresStore(fresh.url);
      await setup.migrate();
      await setup.close();
      // Items cannot be written while this lock is held: the copy fails after the keys.
      const unlock = await holdLocks(fresh.url, 'LOCK TABLE items IN EXCLUSIVE MODE');
      let failed: Awaited<ReturnType<CliSandbox['run']>>;
      try {
        failed = await sandbox.run(['db', 'copy', '--to', fresh.url, '--json'], {
          env: { DATABASE_TIMEOUT_MS: '300' },
        });
      } finally {
        await unlock();
      }
      expect(failed.status).toBe(1);
      expect(failed.json.error.code).toBe('DATABASE_ERROR');
      const partial = new PostgresStore(fresh.url);
      try {
        expect(await partial.countOrganizations()).toBe(2);
        expect(await partial.countItems(orgIds[0] as string)).toBe(0);
        const rerun = await sandbox.run(['db', 'copy', '--to', fresh.url, '--json']);
        expect(rerun.status).toBe(0);
        expect(rerun.json.verified).toBe(true);
        expect(await partial.countItems(orgIds[0] as string)).toBe(2347);
      } finally {
        await partial.close();
      }
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a target that holds data of its own', async () => {
    const foreign = await createTestSchema();
    const store = new PostgresStore(foreign.url);
    try {
      await store.migrate();
      await store.createOrganization({ name: 'Elsewhere', slug: 'elsewhere', features: [] });
      const run = await sandbox.run(['db', 'copy', '--to', foreign.url, '--json']);
      expect(run.status).toBe(1);
      expect(run.json.error.message).toMatch(/not empty/);
      expect(await store.countOrganizations()).toBe(1);
    } finally {
      await store.close();
      await foreign.drop();
    }
  });
});
