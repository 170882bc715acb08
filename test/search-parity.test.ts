import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../packages/server/src/config.js';
import { issueKey } from '../packages/server/src/keys/issue.js';
import { createApiHost, startServices } from '../packages/server/src/server.js';
import { copySqliteToPostgres } from '../packages/server/src/store/postgres/copy.js';
import { DEFAULT_SCAN_BUDGET, foldCase, searchText } from '../packages/server/src/store/search.js';
import { DEFAULT_SEARCH_LIMITS } from '../packages/server/src/store/sqlite/item-search.js';
import { SqliteStore } from '../packages/server/src/store/sqlite/sqlite-store.js';
import type { ItemFields, ItemStatus } from '../packages/server/src/store/types.js';
import { type FetchFunction, injectFetch } from '../packages/server/src/testing/inject-fetch.js';
import { createTestSchema, type TestSchema } from '../packages/server/src/testing/postgres.js';
import { announceSkip, postgresUnavailable } from '../packages/server/src/testing/services.js';

/**
 * Both engines answer every search with the same bytes: one embedded database, an
 * organization larger than the scan budget plus small ones, copied into PostgreSQL with
 * `db copy` (same ids, timestamps and keys), served by a server on each, and walked page by
 * page over HTTP. Every page (data, count, nextCursor) must be identical, for needles of 1–2
 * characters (bounded walks, short pages) and of 3+ (always full pages, on SQLite also through
 * the index and the phrase continuation). The real limits: no test-only setting.
 */
const skip = announceSkip('search parity of SQLite and PostgreSQL', await postgresUnavailable());

const BIG_ROWS = 16_000;
/** "steel" only from this row on: more index matches than the candidate cap, none near the start. */
const STEEL_FROM = 10_500;

function bigRow(i: number): ItemFields {
  const words = ['trail', 'summit', 'merino', 'tent', 'stove', 'shell', 'rope', 'chalk'];
  return {
    sku: `BIG-${i}`,
    name: `Item ${i} ${words[i % words.length]}${i % 700 === 0 ? ' quartz' : ''}`,
    description: i >= STEEL_FROM ? `forged steel, model ${i}` : `model ${i}`,
    barcode: String(4_000_000_000_000 + i),
    // Mostly Active, so a status filter still leaves more rows than the scan budget.
    status: (i % 5 === 0 ? 'Draft' : 'Active') as ItemStatus,
    quantity: (i % 13) / 4,
    customFields: i % 3 === 0 ? `{"bin":"A${i % 17}","n":${i}}` : '{}',
  };
}

function smallRows(tag: string): ItemFields[] {
  return Array.from({ length: 30 }, (_, i) => ({
    sku: `${tag}-${i}`,
    name: `${tag} ${i % 2 === 0 ? 'steel bolt' : 'brass nut'}${i % 9 === 0 ? ' quartz' : ''}`,
    status: (i % 3 === 0 ? 'Draft' : 'Active') as ItemStatus,
    quantity: i,
  }));
}

interface Leg {
  fetch: FetchFunction;
  close(): Promise<void>;
}

interface Walk {
  /** Every response body, as sent. */
  pages: string[];
  ids: string[];
  shortPages: number;
}

async function walk(
  fetch: FetchFunction,
  key: string,
  filters: { search: string; status?: ItemStatus; limit: number },
): Promise<Walk> {
  const result: Walk = { pages: [], ids: [], shortPages: 0 };
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ search: filters.search, limit: String(filters.limit) });
    if (filters.status) params.set('status', filters.status);
    if (cursor) params.set('cursor', cursor);
    const response = await fetch(`/api/v1/inventory/items?${params}`, {
      headers: { 'x-api-key': key },
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    result.pages.push(text);
    const body = JSON.parse(text) as { data: Array<{ _id: string }>; nextCursor: string | null };
    result.ids.push(...body.data.map((item) => item._id));
    cursor = body.nextCursor;
    if (cursor && body.data.length < filters.limit) result.shortPages++;
  } while (cursor);
  return result;
}

describe.skipIf(skip)('search parity: SQLite and PostgreSQL page by page', () => {
  let dir: string;
  let schema: TestSchema;
  const legs: Record<'sqlite' | 'postgres', Leg> = {} as Record<'sqlite' | 'postgres', Leg>;
  const orgs: Array<{
    slug: string;
    key: string;
    texts: Map<string, { text: string; status: string }>;
  }> = [];

  beforeAll(async () => {
    expect(DEFAULT_SEARCH_LIMITS.scanBudget).toBe(DEFAULT_SCAN_BUDGET);
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-parity-'));
    const file = path.join(dir, 'stockroom.db');
    const store = new SqliteStore(file);
    await store.migrate();
    // Small organizations around the big one, so its rowid range has neighbours on both sides.
    for (const [slug, rows] of [
      ['before', smallRows('before')],
      ['big', Array.from({ length: BIG_ROWS }, (_, i) => bigRow(i))],
      ['after', smallRows('after')],
      ['last', smallRows('last')],
    ] as const) {
      const org = await store.createOrganization({ name: slug, slug, features: ['inventory'] });
      for (let i = 0; i < rows.length; i += 2000) {
        await store.writeItems(org.id, rows.slice(i, i + 2000));
      }
      const { key } = await issueKey(store, { organizationId: org.id, rateLimit: null });
      const texts = new Map<string, { text: string; status: string }>();
      let afterId: string | undefined;
      for (;;) {
        const page = await store.listItems(org.id, {
          limit: 1000,
          ...(afterId ? { afterId } : {}),
        });
        for (const item of page)
          texts.set(item.id, { text: searchText(item), status: item.status });
        if (page.length < 1000) break;
        afterId = page[page.length - 1]?.id;
      }
      orgs.push({ slug, key, texts });
    }
    await store.close();
    schema = await createTestSchema();
    await copySqliteToPostgres(file, schema.url);
    for (const [engine, url] of [
      ['sqlite', file],
      ['postgres', schema.url],
    ] as const) {
      // The API host as `serve` builds it, answering through inject.
      const { services } = await startServices(
        loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
        { apiUrl: 'http://api.stockroom.test', docsUrl: 'http://docs.stockroom.test' },
      );
      const api = await createApiHost(services, false);
      legs[engine] = {
        fetch: injectFetch(api),
        close: async () => {
          await api.close();
          await services.close();
        },
      };
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(legs).map((leg) => leg.close()));
    await schema?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const NEEDLES: Array<[string, number]> = [
    // 1–2 characters: bounded walks.
    ['q', 50],
    ['zq', 20],
    ['7', 1000],
    // 3+ characters: common (everywhere; from row 10,500 on), rare, absent.
    ['item', 1000],
    ['steel', 250],
    ['STEEL, model 1', 100],
    ['quartz', 7],
    ['glacierx', 10],
  ];

  it.each(NEEDLES)(
    'answers %j (limit %d) with the same pages on both engines, with and without a status',
    async (needle, limit) => {
      for (const org of orgs) {
        for (const status of [undefined, 'Active', 'Draft'] as const) {
          const filters = { search: needle, limit, ...(status ? { status } : {}) };
          const label = `${needle} (${status ?? 'any status'}) in ${org.slug}`;
          const sqlite = await walk(legs.sqlite.fetch, org.key, filters);
          const postgres = await walk(legs.postgres.fetch, org.key, filters);
          expect(postgres.pages, label).toEqual(sqlite.pages);
          // And both are right: every match exactly once, in id order.
          const folded = foldCase(needle);
          const expected = [...org.texts]
            .filter(([, item]) => item.text.includes(folded) && (!status || item.status === status))
            .map(([id]) => id);
          expect(sqlite.ids, label).toEqual(expected);
          if ([...needle].length >= 3) expect(sqlite.shortPages, label).toBe(0);
          else {
            // The first walk examines the budget's worth of rows of the filter: when they hold
            // fewer matches than a page, that page is short (and the next resumes after them).
            const rows = [...org.texts.values()].filter(
              (item) => !status || item.status === status,
            );
            const inBudget = rows
              .slice(0, DEFAULT_SCAN_BUDGET)
              .filter((item) => item.text.includes(folded)).length;
            const firstIsShort = rows.length > DEFAULT_SCAN_BUDGET && inBudget < limit;
            expect(sqlite.shortPages > 0, label).toBe(firstIsShort);
          }
        }
      }
    },
    60_000,
  );
});
