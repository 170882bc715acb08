import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldCase, searchText } from '../search.js';
import type { Item, ItemFields, ItemQuery, ItemStatus, Organization } from '../types.js';
import Database from './driver.js';
import { CommonNeedles, ftsPhrase, walkSliceSql } from './item-search.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import { SqliteStore } from './sqlite-store.js';

/**
 * The FTS5 search path must answer exactly what the plain substring test (instr over the folded
 * search text) answers: same items, same order, every plan (index candidates, bounded walk,
 * short pages), across organizations. The reference here is that definition, in JavaScript.
 */

const STATUSES: ItemStatus[] = ['Draft', 'Active', 'Inactive', 'Discontinued'];

/** Rows with Unicode, LIKE metacharacters, FTS5 syntax and field boundaries, plus filler. */
function fixture(tag: string, filler: number): ItemFields[] {
  const rows: ItemFields[] = [
    { sku: `${tag}-CBT`, name: 'Crème Brûlée Torch', description: 'Kitchen TORCH for ÉCLAIRS' },
    { sku: `${tag}-PCT`, name: 'Discount 100% off tag', description: 'under_score back\\slash' },
    { sku: `${tag}-GRK`, name: 'Σίσυφος stone', description: null, barcode: null },
    { sku: `${tag}-STR`, name: 'Straße sign', description: 'Kelvin \u212a, long \u017f' },
    { sku: `${tag}-SPN`, name: 'abc', description: 'def', barcode: '4006381333931' },
    { sku: `${tag}-QTE`, name: 'The "quoted" AND NEAR(x y) col:umn^ * term', description: '' },
    { sku: `${tag}-EMO`, name: 'Party 🎉 pack 🎉🎉', description: 'naïve café' },
    { sku: `${tag}-TRK`, name: 'İstanbul ferry', description: 'ıi İI' },
    { name: `no sku ${tag} a_b and a%b`, description: 'x' },
  ];
  for (let i = 0; i < filler; i++) {
    rows.push({
      sku: `${tag}-F${i}`,
      name: `${i % 3 === 0 ? 'Steel' : 'Brass'} bolt M${(i % 12) + 1} ${tag}`,
      description: i % 7 === 0 ? 'drill steel guide' : `pack of ${i}`,
      barcode: String(4000000000000 + i),
    });
  }
  return rows.map((row, i) => ({ status: STATUSES[i % 4], quantity: i, ...row }));
}

const NEEDLES = [
  // 3+ characters: the index path
  'crème',
  'CRÈME BRÛLÉE',
  'creme',
  'éclairs',
  '100%',
  'a_b',
  'a%b',
  'back\\slash',
  'ΣΊΣΥΦΟΣ',
  'straße',
  'STRASSE',
  'kelvin k',
  'long s',
  '"quoted"',
  'and near(',
  'col:umn^ *',
  '🎉🎉',
  'naïve',
  'istanbul',
  'İstanbul',
  'steel',
  'drill steel',
  'bolt m1',
  'pack of 1',
  'abcdef',
  'cdef',
  '4006381333931',
  'zzz',
  'org-b',
  // Longer than MAX_PHRASE_CHARS: looked up by 12 of their characters, post-filtered whole
  'drill steel guide',
  'drill steel guides',
  'kitchen torch for éclairs',
  'brass bolt m1 org-a',
  'steel bolt m12 org-b pack',
  // 1–2 characters: the walk
  '%',
  '_',
  '\\',
  'a',
  'é',
  'ı',
  '🎉',
  'm1',
  'zq',
  '"',
];

function matches(item: Item, needle: string): boolean {
  return searchText(item).includes(foldCase(needle));
}

interface Walk {
  items: Item[];
  pages: number;
  shortPages: number;
  /** Items in each page. */
  sizes: number[];
}

/** Follows a search walk the way the API does: afterId from a full page or a short one. */
async function walk(store: SqliteStore, org: string, query: Omit<ItemQuery, 'afterId'>) {
  const result: Walk = { items: [], pages: 0, shortPages: 0, sizes: [] };
  let afterId: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    let resume: string | undefined;
    const rows = await store.listItems(org, {
      ...query,
      limit: query.limit + 1,
      ...(afterId === undefined ? {} : { afterId }),
      onPartialPage: (id) => {
        resume = id;
      },
    });
    result.pages++;
    const page = rows.slice(0, query.limit);
    result.items.push(...page);
    result.sizes.push(page.length);
    if (rows.length > query.limit) afterId = page[page.length - 1]?.id;
    else if (resume !== undefined) {
      result.shortPages++;
      afterId = resume;
    } else return result;
  }
  throw new Error('walk did not end');
}

describe('SQLite search (FTS5 trigram index + bounded walk)', () => {
  let dir: string;
  /** Tiny limits: every plan, short pages and walks of several slices with a small fixture. */
  let tight: SqliteStore;
  /**
   * A small walk budget, not a multiple of its slice, and the default candidate cap: the index
   * plan for org-a and org-b.
   */
  let indexed: SqliteStore;
  /** The defaults: every organization here is small enough to be walked. */
  let loose: SqliteStore;
  const orgs: Organization[] = [];
  const all = new Map<string, Item[]>();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-search-'));
    const file = path.join(dir, 'stockroom.db');
    tight = new SqliteStore(file, {
      searchLimits: { ftsCandidateCap: 6, scanBudget: 9, walkSliceRows: 4 },
    });
    await tight.migrate();
    indexed = new SqliteStore(file, { searchLimits: { scanBudget: 30, walkSliceRows: 7 } });
    loose = new SqliteStore(file);
    for (const slug of ['org-a', 'org-b', 'org-c']) {
      orgs.push(await tight.createOrganization({ name: slug, slug, features: ['inventory'] }));
    }
    const [a, b, c] = orgs as [Organization, Organization, Organization];
    // Interleaved writes: rows of different organizations are created in turns, in batches
    // large enough to stay queued for the index (a bulk load) and small enough to be indexed.
    const rowsA = fixture('org-a', 700);
    const rowsB = fixture('org-b', 40);
    // The last write leaves 609 rows of org-a queued: both states are searched.
    await tight.writeItems(a.id, rowsA.slice(0, 100));
    await tight.writeItems(b.id, rowsB.slice(0, 20));
    await tight.writeItems(c.id, [{ name: 'Lonely steel thing', sku: 'C-1', status: 'Active' }]);
    await tight.writeItems(b.id, rowsB.slice(20));
    await tight.writeItems(a.id, rowsA.slice(100));
    for (const org of orgs) all.set(org.id, await tight.listItems(org.id, { limit: 100_000 }));
  });

  afterAll(async () => {
    await tight.close();
    await indexed.close();
    await loose.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('quotes a needle as one FTS5 phrase, and has none under 3 characters', () => {
    expect(ftsPhrase('abc')).toBe('"abc"');
    expect(ftsPhrase('a"b')).toBe('"a""b"');
    expect(ftsPhrase('ab')).toBeNull();
    expect(ftsPhrase('🎉🎉')).toBeNull();
    expect(ftsPhrase('🎉🎉🎉')).toBe('"🎉🎉🎉"');
  });

  it('answers every needle exactly as the substring definition, in every organization', async () => {
    for (const org of orgs) {
      const items = all.get(org.id) ?? [];
      for (const needle of NEEDLES) {
        const expected = items.filter((item) => matches(item, needle)).map((item) => item.id);
        for (const store of [tight, indexed, loose]) {
          const got = await walk(store, org.id, { limit: 25, search: foldCase(needle) });
          expect(
            got.items.map((item) => item.id),
            `${needle} in ${org.slug}`,
          ).toEqual(expected);
        }
      }
    }
  });

  it('combines search with status filters and small pages', async () => {
    const org = orgs[0] as Organization;
    const items = all.get(org.id) ?? [];
    for (const needle of ['steel', 'bolt', 'a', '%', 'drill steel', 'zzz']) {
      for (const status of STATUSES) {
        const expected = items
          .filter((item) => item.status === status && matches(item, needle))
          .map((item) => item.id);
        for (const store of [tight, indexed, loose]) {
          for (const limit of [1, 7]) {
            const got = await walk(store, org.id, { limit, status, search: foldCase(needle) });
            expect(got.items.map((item) => item.id)).toEqual(expected);
          }
        }
      }
    }
  });

  it('bounds a walk for needles of 1–2 characters with short pages that resume exactly', async () => {
    const org = orgs[0] as Organization;
    // "zq" matches nothing: a 9-row budget needs many short (empty) pages to cover 709 items.
    const rare = await walk(tight, org.id, { limit: 5, search: 'zq' });
    expect(rare.items).toEqual([]);
    // Each page examines exactly the budget (9 rows, in slices of 4, 4 and 1) and says where it
    // stopped whenever the budget's last row exists; the page after the last such stop ends it.
    const budgetsInOrganization = Math.floor((all.get(org.id) ?? []).length / 9);
    expect(budgetsInOrganization).toBeGreaterThan(70);
    expect(rare.shortPages).toBe(budgetsInOrganization);
    expect(rare.pages).toBe(budgetsInOrganization + 1);
    // With the default limits the same walk is one page.
    const once = await walk(loose, org.id, { limit: 5, search: 'zq' });
    expect(once).toEqual({ items: [], pages: 1, shortPages: 0, sizes: [0] });
  });

  it('walks in slices, serving other requests between them', async () => {
    const org = orgs[0] as Organization;
    const first = (all.get(org.id) ?? [])[0] as Item;
    // Asked for in the next turn of the event loop: served before a walk of three slices (9
    // rows, 4 per slice) ends only if the walk gives the loop back between its slices.
    let served = false;
    setImmediate(() => {
      void tight.getItem(org.id, first.id).then((item) => {
        served = item?.id === first.id;
      });
    });
    const page = await tight.listItems(org.id, { limit: 5, search: 'zq' });
    expect(page).toEqual([]);
    expect(served).toBe(true);
  });

  it('gives a needle of 3+ characters full pages only, whatever plan serves it', async () => {
    for (const org of orgs) {
      for (const needle of NEEDLES.filter((n) => ftsPhrase(foldCase(n)) !== null)) {
        for (const status of [undefined, 'Draft' as const]) {
          for (const store of [tight, indexed, loose]) {
            const got = await walk(store, org.id, {
              limit: 4,
              search: foldCase(needle),
              ...(status ? { status } : {}),
            });
            const label = `${needle} (${status ?? 'any'}) in ${org.slug}`;
            expect(got.shortPages, label).toBe(0);
            // Every page but the last holds exactly `limit` items.
            expect(
              got.sizes.slice(0, -1).every((size) => size === 4),
              label,
            ).toBe(true);
          }
        }
      }
    }
  });

  it("keeps rowids in _id order when another process wrote the organization's latest id", async () => {
    const org = await loose.createOrganization({ name: 'Race', slug: 'race', features: [] });
    await loose.writeItems(org.id, [{ name: 'first', sku: 'R-1' }]);
    // Another process's item of this very second, its random bytes sorting above ours.
    const seconds = Math.floor(Date.now() / 1000)
      .toString(16)
      .padStart(8, '0');
    const theirs = `${seconds}ffffffffff000001`;
    const db = new Database(loose.file);
    try {
      db.prepare(
        `INSERT INTO items (seq, organization_id, id, name, status, quantity, search_text, created_at, updated_at)
         SELECT max(seq) + 1, ?, ?, 'theirs', 'Draft', 0, 'theirs', 0, 0 FROM items
         WHERE organization_id = ?`,
      ).run(org.id, theirs, org.id);
    } finally {
      db.close();
    }
    await loose.writeItems(org.id, [
      { name: 'ours', sku: 'R-2' },
      { name: 'ours too', sku: 'R-3' },
    ]);
    const check = new Database(loose.file, { readonly: true });
    try {
      const bySeq = (
        check
          .prepare('SELECT id FROM items WHERE organization_id = ? ORDER BY seq')
          .all(org.id) as Array<{
          id: string;
        }>
      ).map((row) => row.id);
      expect(bySeq).toHaveLength(4);
      expect(bySeq[1]).toBe(theirs);
      expect(bySeq).toEqual([...bySeq].sort());
    } finally {
      check.close();
    }
  });

  it('sees rows queued for the index, updates and deletes at once', async () => {
    const org = orgs[2] as Organization;
    const ids = async (needle: string) =>
      (await walk(loose, org.id, { limit: 50, search: foldCase(needle) })).items.map(
        (item) => item.sku,
      );
    // 600 rows in one write: a bulk load, queued rather than indexed.
    const bulk = Array.from({ length: 600 }, (_, i) => ({
      sku: `Q-${i}`,
      name: `Queued widget ${i}`,
      status: 'Draft' as const,
    }));
    await loose.writeItems(org.id, bulk);
    expect(await ids('queued widget 599')).toEqual(['Q-599']);
    expect((await ids('queued widget')).length).toBe(600);
    // A small write indexes the queue; the answers stay the same.
    await loose.writeItems(org.id, [{ sku: 'C-2', name: 'Another gadget' }]);
    expect(await ids('queued widget 599')).toEqual(['Q-599']);
    expect(await ids('gadget')).toEqual(['C-2']);
    // Update: the old text no longer matches, the new one does.
    await loose.writeItems(org.id, [{ sku: 'C-2', name: 'Renamed gizmo' }]);
    expect(await ids('gadget')).toEqual([]);
    expect(await ids('gizmo')).toEqual(['C-2']);
    // Update of a row still queued, then delete of queued and indexed rows.
    await loose.writeItems(
      org.id,
      bulk.map((row) => ({ ...row, name: `${row.name} v2` })),
    );
    expect(await ids('queued widget 599 v2')).toEqual(['Q-599']);
    expect(await loose.deleteItem(org.id, { sku: 'Q-599' })).toBe(true);
    expect(await loose.deleteItem(org.id, { sku: 'C-2' })).toBe(true);
    expect(await ids('queued widget 599')).toEqual([]);
    expect(await ids('gizmo')).toEqual([]);
    // Once the queue is indexed (any small write does it), the index agrees with its content
    // table: FTS5's own consistency check, which would fail on a stale or missing entry.
    await loose.writeItems(org.id, [{ sku: 'C-3', name: 'Flush' }]);
    await tight.writeItems(org.id, [{ sku: 'C-3', name: 'Flush' }]);
    const db = new Database(loose.file);
    try {
      db.prepare(
        "INSERT INTO items_search (items_search, rank) VALUES ('integrity-check', 1)",
      ).run();
    } finally {
      db.close();
    }
  });

  it('never reads another organization: the plans start from its rowid range or its index', () => {
    const db = new Database(loose.file, { readonly: true });
    try {
      // Parameters, where a statement has them, are bound to null: only the plan is read.
      const plan = (sql: string) =>
        (
          db
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all(...Array((sql.match(/\?/g) ?? []).length).fill(null)) as Array<{ detail: string }>
        )
          .map((row) => row.detail)
          .join('\n');
      // FTS5 gets the MATCH and both rowid bounds (M1><): it seeks into the range.
      expect(
        plan("SELECT 1 FROM items_search WHERE items_search MATCH 'x' AND rowid BETWEEN 1 AND 2"),
      ).toMatch(/VIRTUAL TABLE INDEX \d+:M\d*></);
      expect(
        plan(
          "SELECT seq FROM items WHERE organization_id = 'o' AND status = 'Draft' AND id > 'a' ORDER BY id LIMIT 5",
        ),
      ).toContain('USING COVERING INDEX items_organization_status (organization_id=? AND status=?');
      expect(
        plan("SELECT seq FROM items WHERE organization_id = 'o' AND id > 'a' ORDER BY id LIMIT 5"),
      ).toMatch(/USING COVERING INDEX sqlite_autoindex_items_\w+ \(organization_id=\? AND id>\?\)/);
      // A slice of the ordered walk (the store's statements): its end on the index alone,
      // then its rows up to there, through the status index when a status is asked for.
      const slice = (status: boolean) =>
        walkSliceSql('i.id, i.name', { status, after: true, bounded: true });
      expect(plan(slice(false).end)).toMatch(
        /USING COVERING INDEX sqlite_autoindex_items_\w+ \(organization_id=\? AND id>\?\)/,
      );
      expect(plan(slice(false).rows)).toMatch(
        /USING INDEX sqlite_autoindex_items_\w+ \(organization_id=\? AND id>\? AND id<\?\)/,
      );
      expect(plan(slice(true).end)).toContain(
        'USING COVERING INDEX items_organization_status (organization_id=? AND status=? AND id>?)',
      );
      expect(plan(slice(true).rows)).toContain(
        'USING INDEX items_organization_status (organization_id=? AND status=? AND id>? AND id<?)',
      );
      // Exact lookups (the store's statements, sliced) and the change feed, through their indexes.
      const columns = 'id, name, sku';
      expect(
        plan(
          `SELECT ${columns} FROM items WHERE organization_id = 'o' AND sku = 'x' AND id > 'a' ORDER BY id LIMIT 5`,
        ),
      ).toContain('USING INDEX items_organization_sku (organization_id=? AND sku=?)');
      expect(
        plan(
          `SELECT ${columns} FROM items WHERE organization_id = 'o' AND barcode = 'x' AND id > 'a' ORDER BY id LIMIT 5`,
        ),
      ).toContain(
        'USING INDEX items_organization_barcode (organization_id=? AND barcode=? AND id>?)',
      );
      expect(
        plan(
          `SELECT ${columns} FROM items WHERE organization_id = 'o' AND id IN (SELECT value FROM json_each('["a"]')) ORDER BY id LIMIT 5`,
        ),
      ).toMatch(/USING INDEX sqlite_autoindex_items_\w+ \(organization_id=\? AND id=\?\)/);
      expect(
        plan(
          `SELECT ${columns}, change_seq FROM items WHERE organization_id = 'o' AND change_seq > 5 ORDER BY change_seq LIMIT 5`,
        ),
      ).toContain('USING INDEX items_organization_change (organization_id=? AND change_seq>?)');
      expect(
        plan(
          `SELECT ${columns}, change_seq FROM items WHERE organization_id = 'o' AND change_seq > 5 AND status = 'Active' ORDER BY change_seq LIMIT 5`,
        ),
      ).not.toMatch(/SCAN items(?! USING)/);
      expect(
        plan(
          "SELECT item_id, deleted_at, seq FROM item_tombstones WHERE organization_id = 'o' AND seq > 5 ORDER BY seq LIMIT 5",
        ),
      ).toContain('SEARCH item_tombstones USING PRIMARY KEY (organization_id=? AND seq>?)');
    } finally {
      db.close();
    }
  });

  it('continues a common needle after a cursor whose item was deleted', async () => {
    const org = orgs[0] as Organization;
    // More matches than the tight candidate cap (6) in an organization larger than its walk
    // budget (9): the phrase query in rowid order serves every page.
    const rows = Array.from({ length: 10 }, (_, i) => ({
      sku: `GONE-${i}`,
      name: `Cursorgone ${i}`,
    }));
    await tight.writeItems(org.id, rows);
    try {
      const first = await tight.listItems(org.id, { limit: 3, search: 'cursorgone' });
      expect(first.map((item) => item.sku)).toEqual(['GONE-0', 'GONE-1', 'GONE-2']);
      const cursor = first[1]?.id as string;
      expect(await tight.deleteItem(org.id, { id: cursor })).toBe(true);
      const next = await tight.listItems(org.id, {
        limit: 3,
        search: 'cursorgone',
        afterId: cursor,
      });
      expect(next.map((item) => item.sku)).toEqual(['GONE-2', 'GONE-3', 'GONE-4']);
    } finally {
      await tight.deleteItems(
        org.id,
        rows.map((row) => ({ sku: row.sku })),
      );
    }
  });
});

describe('CommonNeedles (a plan statistic)', () => {
  it('remembers a needle per organization until its entry expires, within a bounded size', () => {
    const common = new CommonNeedles(1000, 2);
    common.add(1, 'steel', 0);
    expect(common.has(1, 'steel', 999)).toBe(true);
    expect(common.has(1, 'steel', 1000)).toBe(false);
    expect(common.has(2, 'steel', 10)).toBe(false);
    common.add(1, 'bolt', 0);
    // Full: the next entry starts over rather than growing without bound.
    common.add(1, 'brass', 0);
    expect(common.has(1, 'steel', 10)).toBe(false);
    expect(common.has(1, 'brass', 10)).toBe(true);
  });
});

describe('migration 2 (search index) on a database made by migration 1', () => {
  it('keeps every item and organization, and searches them through the index', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-migrate-'));
    const file = path.join(dir, 'stockroom.db');
    try {
      const db = new Database(file);
      const first = SQLITE_MIGRATIONS[0];
      if (!first) throw new Error('no migration 1');
      db.exec(first.sql);
      db.exec(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      db.prepare('INSERT INTO schema_migrations VALUES (1, ?, 0)').run(first.name);
      const insertOrg = db.prepare(
        'INSERT INTO organizations (id, name, slug, features, created_at, updated_at) VALUES (?, ?, ?, \'["inventory"]\', 0, 0)',
      );
      insertOrg.run('b'.repeat(24), 'Second', 'second');
      insertOrg.run('a'.repeat(24), 'First', 'first');
      const insertItem = db.prepare(
        `INSERT INTO items (organization_id, id, name, description, sku, barcode, status, quantity,
           custom_fields, search_text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, 'Active', 1, '{"k":1}', ?, 5, 6)`,
      );
      for (let i = 0; i < 30; i++) {
        const org = i % 2 === 0 ? 'a'.repeat(24) : 'b'.repeat(24);
        const fields = { name: `Old item ${i}`, description: 'Crème', sku: `S${i}`, barcode: null };
        insertItem.run(
          org,
          `${String(i).padStart(2, '0')}${'0'.repeat(22)}`,
          fields.name,
          fields.description,
          fields.sku,
          searchText(fields),
        );
      }
      db.close();

      const store = new SqliteStore(file);
      try {
        expect(await store.migrate()).toEqual([
          '0002_search_index',
          '0003_database_id',
          '0004_rowids_in_id_order',
          '0005_simple_case_folding',
          '0006_key_rotation_and_audit_log',
          '0007_change_feed',
          '0008_webhooks',
          '0009_locations',
          '0010_key_views',
          '0011_change_before_images',
          '0012_non_finite_quantities',
          '0013_search_field_indexes',
        ]);
        const first = await store.listItems('a'.repeat(24), { limit: 100 });
        expect(first.map((item) => item.sku)).toEqual(
          Array.from({ length: 15 }, (_, k) => `S${k * 2}`),
        );
        expect(first[0]).toMatchObject({
          name: 'Old item 0',
          customFields: '{"k":1}',
          createdAt: 5,
          updatedAt: 6,
        });
        const found = await store.listItems('b'.repeat(24), {
          limit: 100,
          search: foldCase('CRÈME'),
        });
        expect(found).toHaveLength(15);
        expect(
          (await store.listItems('b'.repeat(24), { limit: 100, search: 'old item 13' })).map(
            (item) => item.sku,
          ),
        ).toEqual(['S13']);
        // New organizations and items get their ranges after the migrated ones.
        const org = await store.createOrganization({ name: 'N', slug: 'n', features: [] });
        await store.writeItems(org.id, [{ name: 'Old item 13 lookalike', sku: 'N1' }]);
        expect(
          (await store.listItems(org.id, { limit: 10, search: 'old item 13' })).map(
            (item) => item.sku,
          ),
        ).toEqual(['N1']);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('migration 4 (rowids in _id order) on a database whose rows are not', () => {
  it('renumbers the organizations out of order, and searches stay exact', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-migrate-'));
    const file = path.join(dir, 'stockroom.db');
    try {
      const db = new Database(file);
      db.exec(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      for (const migration of SQLITE_MIGRATIONS.slice(0, 3)) {
        db.exec(migration.sql);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(
          migration.version,
          migration.name,
        );
      }
      const insertOrg = db.prepare(
        `INSERT INTO organizations (id, name, slug, features, created_at, updated_at, seq)
         VALUES (?, ?, ?, '[]', 0, 0, ?)`,
      );
      insertOrg.run('a'.repeat(24), 'Mixed', 'mixed', 1);
      insertOrg.run('b'.repeat(24), 'Tidy', 'tidy', 2);
      const insertItem = db.prepare(
        `INSERT INTO items (seq, organization_id, id, name, status, quantity, search_text, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'Active', 0, ?, 0, 0)`,
      );
      // Two writers in the same second: their ids interleave by random bytes, not by time.
      const mixed: Array<[string, string]> = [];
      for (let i = 0; i < 40; i++) {
        const writer = i % 2 === 0 ? '1111111111' : '0000000000';
        mixed.push([
          `65000000${writer}${String(i).padStart(6, '0')}`,
          `gear ${i} ${i % 3 === 0 ? 'steel' : 'brass'}`,
        ]);
      }
      mixed.forEach(([id, name], i) => {
        insertItem.run(2 ** 32 + i + 1, 'a'.repeat(24), id, name, foldCase(name));
      });
      for (let i = 0; i < 5; i++) {
        insertItem.run(
          2 * 2 ** 32 + i + 1,
          'b'.repeat(24),
          `65000000aaaaaaaaaa${String(i).padStart(6, '0')}`,
          `tidy steel ${i}`,
          `tidy steel ${i}`,
        );
      }
      // Some rows indexed, the last ones still queued.
      db.exec(`INSERT INTO items_search (rowid, search_text)
               SELECT seq, search_text FROM items WHERE seq IN (SELECT seq FROM items_search_pending WHERE seq <= ${2 ** 32 + 30})`);
      db.exec(`DELETE FROM items_search_pending WHERE seq <= ${2 ** 32 + 30}`);
      const tidyBefore = db
        .prepare('SELECT seq, id FROM items WHERE organization_id = ? ORDER BY seq')
        .all('b'.repeat(24));
      db.close();

      const store = new SqliteStore(file, { searchLimits: { ftsCandidateCap: 3, scanBudget: 4 } });
      try {
        expect(await store.migrate()).toEqual([
          '0004_rowids_in_id_order',
          '0005_simple_case_folding',
          '0006_key_rotation_and_audit_log',
          '0007_change_feed',
          '0008_webhooks',
          '0009_locations',
          '0010_key_views',
          '0011_change_before_images',
          '0012_non_finite_quantities',
          '0013_search_field_indexes',
        ]);
        const check = new Database(file);
        try {
          const bySeq = (org: string) =>
            check
              .prepare('SELECT seq, id FROM items WHERE organization_id = ? ORDER BY seq')
              .all(org) as Array<{ seq: number; id: string }>;
          const a = bySeq('a'.repeat(24));
          expect(a.map((row) => row.id)).toEqual(mixed.map(([id]) => id).sort());
          expect(a.map((row) => row.seq)).toEqual(mixed.map((_, i) => 2 ** 32 + i + 1));
          expect(bySeq('b'.repeat(24))).toEqual(tidyBefore);
          // The index agrees with its content table once the queue is indexed.
          check
            .prepare("INSERT INTO items_search (items_search, rank) VALUES ('integrity-check', 1)")
            .run();
        } finally {
          check.close();
        }
        const expected = mixed
          .filter(([, name]) => name.includes('steel'))
          .map(([id]) => id)
          .sort();
        const got = await walk(store, 'a'.repeat(24), { limit: 3, search: 'steel' });
        expect(got.items.map((item) => item.id)).toEqual(expected);
        expect(got.shortPages).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
