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
