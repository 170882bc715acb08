import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { issueKey, rotateKey } from '../keys/issue.js';
import { startServer } from '../server.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import Database from '../store/sqlite/driver.js';
import type { Item, Store } from '../store/types.js';
import { type CliSandbox, createCliSandbox } from '../testing/cli-harness.js';
import { createTestSchema, execInSchema, holdLocks, type TestSchema } from '../testing/postgres.js';
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
  let rotatedUserKey: string;

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
    const userIssued = await issueKey(source, {
      organizationId: acme.id,
      userId: ada.id,
      remaining: 7,
      rateLimit: { max: 5, windowSeconds: 60 },
    });
    // Rotated with a grace period: both secrets must keep working on the copy.
    userKey = userIssued.key;
    const rotated = await rotateKey(source, userIssued.record, 3600);
    rotatedUserKey = (rotated as NonNullable<typeof rotated>).key;
    await source.appendAuditEvent({
      organizationId: acme.id,
      actor: 'cli:test',
      action: 'key.rotated',
      target: userIssued.record.id,
      details: { prefix: (rotated as NonNullable<typeof rotated>).record.prefix },
    });
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
    // Stock per location (issue 31): locations and stock rows go with the items.
    await source.createLocation(acme.id, { code: 'WH-1', name: 'Warehouse' });
    await source.createLocation(acme.id, { code: 'SHOP', name: 'Shop' });
    await source.writeItems(acme.id, [
      {
        sku: 'BULK-7',
        stock: '[{"location":"SHOP","quantity":0},{"location":"WH-1","quantity":4}]',
      },
    ]);
    // A deleted item: its tombstone is part of the change feed the copy carries.
    await source.writeItems(acme.id, [{ sku: 'GONE-1', name: 'Gone' }]);
    // The key that signs sync tokens: tokens the source issued stay valid on the target.
    await source.installationSecret('sync_tokens', 'c291cmNlIGtleSBvZiB0aGlzIGluc3RhbGxhdGlvbg');
    expect(await source.deleteItem(acme.id, { sku: 'GONE-1' })).toBe(true);
    // A webhook with a delivery still to send: the target's servers send it.
    const webhook = await source.webhooks.create({
      organizationId: acme.id,
      url: 'https://hooks.example/stockroom',
      events: ['item.created', 'item.deleted'],
      description: 'ERP',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    await source.webhooks.advance(
      webhook.id,
      webhook.cursor,
      webhook.cursor,
      {
        id: '6740a1f2c3d4e5f6a7b8c9d0',
        payload: '{"events":[]}',
        eventCount: 1,
        createdAt: 1_700_000_000_000,
      },
      true,
    );
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
      copied: {
        organizations: 2,
        users: 2,
        memberships: 2,
        apiKeys: 3,
        items: 2348,
        locations: 2,
        stock: 2,
        tombstones: 1,
        // BULK-7's change (its stock) and GONE-1's deletion.
        changes: 2,
        secrets: 1,
        auditEvents: 1,
        webhooks: 1,
        webhookDeliveries: 1,
      },
      deleted: {
        organizations: 0,
        users: 0,
        memberships: 0,
        apiKeys: 0,
        items: 0,
        tombstones: 0,
        auditEvents: 0,
      },
      verified: true,
    });

    // The planner has statistics at once, whether autovacuum is slow, off (as on the test
    // machine), or has not reached the tables yet.
    const analyzed = await target.query(
      `SELECT DISTINCT tablename FROM pg_stats WHERE schemaname = current_schema()
       AND tablename IN ('organizations', 'api_keys', 'items') ORDER BY tablename`,
    );
    expect(analyzed.map((row) => row.tablename)).toEqual(['api_keys', 'items', 'organizations']);

    expect(await target.listOrganizations()).toEqual(await source.listOrganizations());
    for (const orgId of orgIds) {
      expect(await target.listLocations(orgId)).toEqual(await source.listLocations(orgId));
      const atWarehouse = { limit: 10, location: 'WH-1' };
      expect(await target.listItems(orgId, atWarehouse)).toEqual(
        await source.listItems(orgId, atWarehouse),
      );
    }
    // The change feed goes on from the same positions: every change number, the tombstone and
    // each organization's counter (the throughSeq of a page that reads to the end).
    for (const orgId of orgIds) {
      const feed = { afterSeq: 0, limit: 5000, includeDeleted: true };
      const copied = await target.listChanges(orgId, feed);
      expect(copied).toEqual(await source.listChanges(orgId, feed));
      expect(copied.more).toBe(false);
      expect(copied.throughSeq).toBeGreaterThan(0);
    }
    // The before-images start where the source's did.
    const meta = "SELECT value FROM stockroom_meta WHERE key = 'before_images_from'";
    const sourceMeta = new Database(sandbox.dbPath, { readonly: true });
    try {
      expect(await target.query(meta)).toEqual([sourceMeta.prepare(meta).get()]);
    } finally {
      sourceMeta.close();
    }
    // The target signs with the source's key, whatever key it would have made itself.
    expect(await target.installationSecret('sync_tokens', 'another')).toBe(
      await source.installationSecret('sync_tokens', 'unused'),
    );
    expect(
      (
        await target.listChanges(orgIds[0] as string, {
          afterSeq: 0,
          limit: 5000,
          includeDeleted: true,
        })
      ).deleted,
    ).toHaveLength(1);
    for (const orgId of orgIds) {
      const webhooks = await source.webhooks.list(orgId);
      expect(await target.webhooks.list(orgId)).toEqual(webhooks);
      for (const { id } of webhooks) {
        expect(await target.webhooks.listDeliveries(id, 10)).toEqual(
          await source.webhooks.listDeliveries(id, 10),
        );
      }
      expect(await target.listApiKeys(orgId)).toEqual(await source.listApiKeys(orgId));
      expect(await target.listMembers(orgId)).toEqual(await source.listMembers(orgId));
      expect(await allItems(target, orgId)).toEqual(await allItems(source, orgId));
      expect(await target.listAuditEvents(orgId)).toEqual(await source.listAuditEvents(orgId));
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
      const verifyRotated = await fetch(`${server.apiUrl}/api/v1/auth/verify`, {
        headers: { 'x-api-key': rotatedUserKey },
      });
      expect(verifyRotated.status).toBe(200);
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
  it('refuses a target that holds a copy of another embedded database', async () => {
    const other = createCliSandbox();
    try {
      const store = other.store();
      await store.migrate();
      await store.createOrganization({ name: 'Another', slug: 'another', features: [] });
      // The target holds the copy of the first source made above: not this one's.
      const run = await other.run(['db', 'copy', '--to', schema.url, '--json']);
      expect(run.status).toBe(1);
      expect(run.json.error.message).toMatch(/holds a copy of another database/);
      expect(await target.countOrganizations()).toBe(2);
    } finally {
      other.cleanup();
    }
  });

  it('fails (exit 1) naming the table and both counts when the target does not verify', async () => {
    const corrupt = await createTestSchema();
    const store = new PostgresStore(corrupt.url);
    try {
      await store.migrate();
      // A trigger that adds one item of its own to the first batch of items written: the
      // copy itself succeeds, and only the count check can notice.
      await execInSchema(
        corrupt.url,
        `CREATE FUNCTION add_stray_item() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF pg_trigger_depth() = 1 THEN
             INSERT INTO items (organization_id, id, name, status, quantity, search_text, created_at, updated_at, change_seq)
             SELECT organization_id, 'ffffffffffffffffffffffff', 'stray', 'Draft', 0, 'stray', 0, 0, 0
             FROM items LIMIT 1 ON CONFLICT DO NOTHING;
           END IF;
           RETURN NULL;
         END $$;
         CREATE TRIGGER stray AFTER INSERT ON items FOR EACH STATEMENT EXECUTE FUNCTION add_stray_item();`,
      );
      const run = await sandbox.run(['db', 'copy', '--to', corrupt.url, '--json']);
      expect(run.status).toBe(1);
      expect(run.json.error).toEqual({
        code: 'DATABASE_ERROR',
        message: 'verification failed: items has 2349 rows in the target and 2348 in the source',
      });
      expect(run.stderr).toBe(
        'stockroom: verification failed: items has 2349 rows in the target and 2348 in the source\n',
      );
      // Without the trigger, a rerun deletes the stray row and verifies.
      await execInSchema(corrupt.url, 'DROP TRIGGER stray ON items');
      const rerun = await sandbox.run(['db', 'copy', '--to', corrupt.url, '--json']);
      expect(rerun.status).toBe(0);
      expect(rerun.json.deleted.items).toBe(1);
      expect(rerun.json.verified).toBe(true);
    } finally {
      await store.close();
      await corrupt.drop();
    }
  });

  it('a rerun after the source changed deletes what the source no longer has, and verifies', async () => {
    const [acme, other] = orgIds as [string, string];
    const items = await allItems(source, acme);
    const gone = items[1] as Item;
    expect(await source.deleteItem(acme, { id: gone.id })).toBe(true);
    const [ada] = await source.listMembers(acme);
    expect(await source.removeMember(acme, (ada as { id: string }).id)).toBe(true);
    // The store has no way to delete an organization, a user or a key; a restored backup
    // or a hand edit might: the other organization goes, with its member, key and item.
    const raw = new Database(sandbox.dbPath);
    try {
      raw.exec(`
        DELETE FROM items WHERE organization_id = '${other}';
        DELETE FROM api_keys WHERE organization_id = '${other}';
        DELETE FROM memberships WHERE organization_id = '${other}';
        DELETE FROM users WHERE email_normalized = 'bob@example.test';
        DELETE FROM organizations WHERE id = '${other}';
      `);
    } finally {
      raw.close();
    }

    const run = await sandbox.run(['db', 'copy', '--to', schema.url, '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.json).toMatchObject({
      copied: {
        organizations: 1,
        users: 1,
        memberships: 0,
        apiKeys: 2,
        items: 2346,
        tombstones: 2,
        auditEvents: 1,
      },
      deleted: {
        organizations: 1,
        users: 1,
        memberships: 2,
        apiKeys: 1,
        items: 2,
        tombstones: 0,
        auditEvents: 0,
      },
      verified: true,
    });
    expect(await target.listOrganizations()).toEqual(await source.listOrganizations());
    expect(await target.listMembers(acme)).toEqual([]);
    expect(await target.listApiKeys(acme)).toEqual(await source.listApiKeys(acme));
    expect(await allItems(target, acme)).toEqual(await allItems(source, acme));
    expect(await target.getItem(acme, gone.id)).toBeNull();
    const feed = { afterSeq: 0, limit: 5000, includeDeleted: true };
    expect(await target.listChanges(acme, feed)).toEqual(await source.listChanges(acme, feed));
    expect(await target.findUser('bob@example.test')).toBeNull();

    // Converged: one more run deletes nothing.
    const again = await sandbox.run(['db', 'copy', '--to', schema.url, '--json']);
    expect(again.status).toBe(0);
    expect(again.json.deleted).toEqual({
      organizations: 0,
      users: 0,
      memberships: 0,
      apiKeys: 0,
      items: 0,
      locations: 0,
      stock: 0,
      tombstones: 0,
      changes: 0,
      secrets: 0,
      auditEvents: 0,
      webhooks: 0,
      webhookDeliveries: 0,
    });
  });
});
