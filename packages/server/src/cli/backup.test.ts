import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../keys/format.js';
import { issueKey } from '../keys/issue.js';
import Database from '../store/sqlite/driver.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { ItemFields } from '../store/types.js';
import {
  type CliSandbox,
  createCliSandbox,
  expectFailure,
  expectSuccess,
} from '../testing/cli-harness.js';
import { TEST_DATABASE_URL } from '../testing/postgres.js';
import { startServeProcess } from '../testing/serve-process.js';

const ROWS_PER_IMPORT_BATCH = 1000; // items/import.ts DEFAULT_BATCH_SIZE

function rows(tag: string, count: number): ItemFields[] {
  return Array.from({ length: count }, (_, i) => ({
    sku: `${tag}-${i}`,
    name: `Lantern ${tag} ${i}`,
    description: i % 2 === 0 ? 'Crème brûlée torch' : null,
    status: 'Active',
    quantity: i / 4,
    customFields: `{ "z": ${i}, "a": "ü" }`,
  }));
}

/** Temporary files a backup leaves beside its target (none, if it cleaned up). */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.tmp'));
}

/** Opens a backup read-only and runs SQLite's integrity check and a count. */
function inspect(file: string): { integrity: string; items: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }) as string,
      items: (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

/** A store on `file`, closed by `cleanup`. */
function opener() {
  const stores: SqliteStore[] = [];
  return {
    open(file: string) {
      const store = new SqliteStore(file);
      stores.push(store);
      return store;
    },
    cleanup: () => Promise.all(stores.map((store) => store.close())),
  };
}

describe('stockroom backup', () => {
  let box: CliSandbox;
  const stores = opener();
  let acmeId: string;
  let key: string;

  beforeAll(async () => {
    box = createCliSandbox();
    const store = stores.open(box.dbPath);
    await store.migrate();
    const acme = await store.createOrganization({ name: 'Acme', slug: 'acme', features: [] });
    const other = await store.createOrganization({ name: 'Other', slug: 'other', features: [] });
    acmeId = acme.id;
    await store.writeItems(acme.id, rows('A', 700)); // a bulk write: left queued for the index
    await store.writeItems(other.id, rows('O', 20)); // indexed at once, with the queue
    await store.writeItems(acme.id, rows('B', 600)); // queued again
    const user = await store.createUser({ email: 'ana@example.com', name: 'Ana' });
    await store.addMember(acme.id, user.id);
    key = (await issueKey(store, { organizationId: acme.id })).key;
    await issueKey(store, { organizationId: acme.id, userId: user.id });
    await issueKey(store, { organizationId: other.id });
  });
  afterAll(async () => {
    await stores.cleanup();
    box.cleanup();
  });

  it('writes a copy with the same counts and items, and says what it holds (--json)', async () => {
    const file = path.join(box.dir, 'copy.db');
    const backup = await box.run(['backup', file, '--json']);
    expectSuccess(backup, { json: true });
    expect(backup.json).toEqual({
      file,
      bytes: statSync(file).size,
      organizations: 2,
      items: 1320,
      apiKeys: 3,
    });
    expect(leftovers(box.dir)).toEqual([]);
    expect(inspect(file).integrity).toBe('ok');

    const original = stores.open(box.dbPath);
    const copy = stores.open(file);
    expect(await copy.listOrganizations()).toEqual(await original.listOrganizations());
    for (const organization of await original.listOrganizations()) {
      expect(await copy.listItems(organization.id, { limit: 1000 })).toEqual(
        await original.listItems(organization.id, { limit: 1000 }),
      );
      expect(await copy.listApiKeys(organization.id)).toEqual(
        await original.listApiKeys(organization.id),
      );
      expect(await copy.listMembers(organization.id)).toEqual(
        await original.listMembers(organization.id),
      );
    }
    // Searches (over the index and the rows still queued for it) and keys work in the copy.
    expect(await copy.listItems(acmeId, { limit: 1000, search: 'lantern b 5' })).toEqual(
      await original.listItems(acmeId, { limit: 1000, search: 'lantern b 5' }),
    );
    expect(await copy.listItems(acmeId, { limit: 1000, search: 'lantern b 5' })).toHaveLength(111);
    expect((await copy.loadKeyContext(hashKey(key)))?.organization.id).toBe(acmeId);
  });

  it('prints a short summary without --json (FILE relative to the working directory)', async () => {
    const backup = await box.run(['backup', 'relative.db']);
    expectSuccess(backup);
    const file = path.join(box.dir, 'relative.db');
    expect(backup.stdout).toBe(
      `Backed up ${box.dbPath} to ${file}\nbytes:         ${statSync(file).size}\norganizations: 2\nitems:         1320\nAPI keys:      3\n`,
    );
  });

  it('refuses an existing FILE (exit 1) and leaves it as it was; --force replaces it', async () => {
    const taken = box.file('taken.db', 'keep me');
    for (const json of [false, true]) {
      expectFailure(await box.run(['backup', taken, ...(json ? ['--json'] : [])]), {
        status: 1,
        code: 'FILE_EXISTS',
        message: `stockroom: ${taken} already exists; choose another file, or pass --force to replace it`,
        json,
      });
    }
    expect(readFileSync(taken, 'utf8')).toBe('keep me');
    expect(leftovers(box.dir)).toEqual([]);
    const forced = await box.run(['backup', taken, '--force', '--json']);
    expectSuccess(forced, { json: true });
    expect(forced.json).toMatchObject({ file: taken, items: 1320 });
    expect(inspect(taken)).toEqual({ integrity: 'ok', items: 1320 });
  });

  it('refuses a FILE whose directory does not exist, a directory, and the database itself', async () => {
    const before = box.dump();
    const missing = path.join(box.dir, 'no', 'such', 'dir', 'copy.db');
    expectFailure(await box.run(['backup', missing, '--json']), {
      status: 1,
      code: 'INVALID_FILE',
      message: `stockroom: the directory ${path.dirname(missing)} does not exist`,
      json: true,
    });
    expect(existsSync(path.join(box.dir, 'no'))).toBe(false);
    expectFailure(await box.run(['backup', box.dir]), {
      status: 1,
      message: /is a directory; name a file in it/,
    });
    for (const target of [box.dbPath, `${box.dbPath}-wal`]) {
      expectFailure(await box.run(['backup', target, '--force']), {
        status: 1,
        message: /is the database being backed up \(or one of its files\); choose another file$/,
      });
    }
    expect(box.dump()).toBe(before);
  });

  it('refuses a database that does not exist, creating nothing', async () => {
    const absent = path.join(box.dir, 'absent.db');
    expectFailure(
      await box.run(['backup', path.join(box.dir, 'x.db')], { env: { DATABASE_URL: absent } }),
      { status: 1, code: 'DATABASE_ERROR', message: `stockroom: no SQLite database at ${absent}` },
    );
    expect(existsSync(absent)).toBe(false);
    expect(existsSync(path.join(box.dir, 'x.db'))).toBe(false);
  });

  it('on PostgreSQL: exit 1 with the pg_dump recipe, writing nothing', async () => {
    // The command refuses from the URL alone, without connecting: no server is needed.
    const target = path.join(box.dir, 'pg.db');
    const ways: Array<{ env: Record<string, string>; extra: string[] }> = [
      { env: { DATABASE_URL: TEST_DATABASE_URL }, extra: [] },
      { env: {}, extra: ['--database', TEST_DATABASE_URL] },
    ];
    for (const args of ways) {
      const run = await box.run(['backup', target, '--json', ...args.extra], { env: args.env });
      expectFailure(run, { status: 1, code: 'NOT_SUPPORTED', json: true });
      expect(run.json.error.message).toContain(
        'pg_dump --format=custom --file=stockroom.dump "$DATABASE_URL"',
      );
      expect(run.json.error.message).toContain('pg_restore --no-owner --dbname=URL stockroom.dump');
    }
    expect(existsSync(target)).toBe(false);
  });
});

describe('stockroom backup while a server serves the file and an import writes it', () => {
  const box = createCliSandbox();
  const stores = opener();
  afterAll(async () => {
    await stores.cleanup();
    box.cleanup();
  });

  it('gives consistent snapshots: each copy passes integrity_check and holds a committed state', async () => {
    const store = stores.open(box.dbPath);
    await store.migrate();
    const busy = await store.createOrganization({
      name: 'Busy',
      slug: 'busy',
      features: ['inventory'],
    });
    const base = 250;
    await store.writeItems(busy.id, rows('BASE', base));
    const { key } = await issueKey(store, {
      organizationId: busy.id,
      remaining: 1_000_000,
      rateLimit: null,
    });
    const total = 50 * ROWS_PER_IMPORT_BATCH;
    const csv = ['sku,name,description,quantity'];
    for (let i = 0; i < total; i++) {
      csv.push(`NEW-${i},Item ${i} lantern,"Described at some length, item ${i}",${i}`);
    }
    const file = box.file('import.csv', `${csv.join('\n')}\n`);

    const server = await startServeProcess({ DATABASE_URL: box.dbPath });
    try {
      // The server reads and writes (each request spends quota) throughout.
      let serving = true;
      const statuses: number[] = [];
      const traffic = (async () => {
        while (serving) {
          const response = await fetch(`${server.apiUrl}/api/v1/inventory/items?limit=5`, {
            headers: { 'x-api-key': key },
          });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      })();
      let importing = true;
      // The import and the backups are processes of their own, as an operator's would be.
      const imported = box
        .runBinary(['items', 'import', file, '--org', 'busy', '--json'])
        .finally(() => {
          importing = false;
        });
      // Backups start once the import has committed its first batch (it reads the whole file
      // first), so they overlap its writes.
      const reader = new Database(box.dbPath, { readonly: true });
      try {
        const count = reader.prepare('SELECT count(*) AS n FROM items');
        while ((count.get() as { n: number }).n === base && importing) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        reader.close();
      }
      // Backups keep starting, a few at a time and staggered, until the import ends: their
      // snapshots fall at different points of it.
      const copies: string[] = [];
      const running = new Set<Promise<void>>();
      const finished: Array<Promise<void>> = [];
      while (importing) {
        if (running.size >= 3) {
          await Promise.race(running);
          continue;
        }
        const copy = path.join(box.dir, `copy-${copies.length}.db`);
        copies.push(copy);
        const backup: Promise<void> = box.runBinary(['backup', copy, '--json']).then((run) => {
          running.delete(backup);
          expectSuccess(run, { json: true });
        });
        running.add(backup);
        finished.push(backup);
        await Promise.race([imported, new Promise((resolve) => setTimeout(resolve, 150))]);
      }
      await Promise.all(finished);
      const result = await imported;
      serving = false;
      await traffic;
      expectSuccess(result, { json: true });
      expect(result.json).toMatchObject({ created: total, failed: 0 });
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set([200]));

      // Every batch of the import is one transaction: a copy holds whole batches only.
      const committed = (n: number) =>
        n >= base && n <= base + total && (n - base) % ROWS_PER_IMPORT_BATCH === 0;
      const counts: number[] = [];
      for (const copy of copies) {
        const { integrity, items } = inspect(copy);
        expect(integrity).toBe('ok');
        expect(committed(items), `${items} items`).toBe(true);
        counts.push(items);
      }
      // The search index and its queue were copied consistently with the rows: once the rows
      // left queued are indexed, FTS5's own check agrees with the items table.
      for (const copy of copies.filter((_, i) => (counts[i] ?? 0) < base + total).slice(0, 2)) {
        const opened = stores.open(copy);
        await opened.migrate();
        await opened.close();
        const raw = new Database(copy);
        try {
          raw
            .prepare("INSERT INTO items_search (items_search, rank) VALUES ('integrity-check', 1)")
            .run();
        } finally {
          raw.close();
        }
      }
      // At least one copy was taken while the import was part-way through.
      expect(
        counts.some((n) => n > base && n < base + total),
        `items in the copies: ${counts.join(', ')}`,
      ).toBe(true);
      expect(leftovers(box.dir)).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
