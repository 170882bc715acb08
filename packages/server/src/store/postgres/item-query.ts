import { changeSliceSize, skipsChanges } from '../changes.js';
import { filtersRows, foldScope } from '../item-scope.js';
import { DEFAULT_SCAN_BUDGET, isShortNeedle } from '../search.js';
import { unsearchable } from '../storable.js';
import type { ChangeQuery, ItemQuery } from '../types.js';
import { seenSinceCondition } from './before-images.js';
import { scopeConditions, searchFieldsCondition } from './item-scope.js';
import { ITEM_COLUMNS } from './rows.js';
import { containsPattern, FIELD_SEPARATOR } from './search-text.js';

export interface Statement {
  sql: string;
  params: unknown[];
  /**
   * A bounded walk (needles of 1–2 characters): every row carries `walk_end`, the last id the
   * walk examined when it examined its whole budget (else null), and a page without items is
   * one row of nulls but that.
   */
  walk?: true;
  /**
   * Set when the statement's best plan cannot depend on its values (a lookup through a unique
   * or exact index): the store then runs it as a prepared statement of this name (prepared.ts).
   * Each name always carries the same text: it spells which filters the text holds.
   */
  name?: string;
}

/** A name per combination of filters, so that one name always has one text. */
function shapeName(prefix: string, filters: Record<string, boolean>): string {
  const present = Object.entries(filters).filter(([, on]) => on);
  return [prefix, ...present.map(([name]) => name)].join('_');
}

/**
 * The SQL of one page of items (null when the search can match nothing). Kept apart from the
 * store so the plan test can EXPLAIN exactly what the store runs.
 */
export function itemListStatement(
  organizationId: string,
  asked: ItemQuery,
  scanBudget = DEFAULT_SCAN_BUDGET,
): Statement | null {
  // The key's scope: a status or location of it served by their indexes, the rest tested.
  const query = foldScope(asked);
  if (query === null) return null;
  if (query.location !== undefined) return locationListStatement(organizationId, query);
  const params: unknown[] = [organizationId];
  const where = ['organization_id = $1'];
  if (query.status !== undefined) {
    params.push(query.status);
    where.push(`status = $${params.length}`);
  }
  if (query.afterId !== undefined) {
    params.push(query.afterId);
    where.push(`id > $${params.length}`);
  }
  // The key's scope: tested on the rows of every plan, but outside the bounded reads of the
  // search plans below (their `walk` and `probe` count rows as the status filter alone
  // selects them, the rule both engines share), so it is kept apart until they are built.
  const scope = scopeConditions(query.scope, 'items', params);
  // Exact filters go through their indexes: items_organization_sku (unique),
  // items_organization_barcode (organization_id, barcode, id) and the primary key. A search
  // beside them only filters those few rows, so it needs none of the plans below.
  const exact = query.sku !== undefined || query.barcode !== undefined || query.ids !== undefined;
  if (query.sku !== undefined) {
    params.push(query.sku);
    where.push(`sku = $${params.length}`);
  }
  if (query.barcode !== undefined) {
    params.push(query.barcode);
    where.push(`barcode = $${params.length}`);
  }
  if (query.ids !== undefined) {
    params.push(query.ids);
    where.push(`id = ANY($${params.length}::text[])`);
  }
  // PostgreSQL text cannot hold U+0000, so no stored value equals one that does.
  if ([query.sku, query.barcode, ...(query.ids ?? [])].some((v) => v?.includes('\u0000'))) {
    return null;
  }
  // An exact lookup is served by its index whatever the values; a page that only filters by
  // status, or searches, is planned for its values (a rare status or needle plans otherwise).
  const exactName =
    exact && query.search === undefined && !filtersRows(query.scope)
      ? shapeName('item_lookup', {
          status: query.status !== undefined,
          after: query.afterId !== undefined,
          sku: query.sku !== undefined,
          barcode: query.barcode !== undefined,
          ids: query.ids !== undefined,
        })
      : undefined;
  if (exact && query.search !== undefined) {
    if (unsearchable(query.search) || query.search.includes(FIELD_SEPARATOR)) return null;
    params.push(containsPattern(query.search));
    where.push(matchCondition(query, 'search_text', `$${params.length}`));
  }
  if (query.ids !== undefined) {
    where.push(...scope);
    // The ids first, each through the primary key, then the few rows found sorted. Planned as
    // one query, `id = ANY(…) ORDER BY id LIMIT n` tempts PostgreSQL into walking the
    // organization in id order and filtering (it estimates the array to match 1% of the
    // rows): 0.9 s for 100 ids in a 1M-item organization instead of 2 ms.
    params.push(query.limit);
    return {
      sql: `WITH picked AS MATERIALIZED (
          SELECT ${ITEM_COLUMNS} FROM items WHERE ${where.join(' AND ')}
        )
        SELECT * FROM picked ORDER BY id LIMIT $${params.length}`,
      params,
      name: exactName,
    };
  }
  if (query.search === undefined || exact) {
    where.push(...scope);
    // (organization_id, id) or (organization_id, status, id) delivers rows already in order.
    params.push(query.limit);
    return {
      sql: `SELECT ${ITEM_COLUMNS} FROM items WHERE ${where.join(' AND ')} ORDER BY id LIMIT $${params.length}`,
      params,
      name: exactName,
    };
  }
  if (unsearchable(query.search) || query.search.includes(FIELD_SEPARATOR)) return null;
  const filters = where.join(' AND ');
  params.push(containsPattern(query.search));
  const pattern = `$${params.length}`;
  // A row of `walk` or `probe` the key's scope lets it see: its columns read by its primary key.
  const seen = (alias: string) =>
    scope.length === 0
      ? ''
      : ` AND EXISTS (SELECT 1 FROM items WHERE organization_id = $1 AND id = ${alias}.id AND ${scope.join(' AND ')})`;
  const match = matchCondition(query, 'search_text', pattern);
  params.push(query.limit);
  const limit = `$${params.length}`;
  if (isShortNeedle(query.search)) {
    // 1–2 characters: no trigram to look up, so no index can find the matches, and a scan of
    // every match would read the whole organization (or, planned as a sequential scan, the
    // whole table). The rule both engines share (store/search.ts): walk at most `scanBudget`
    // rows after the cursor in id order, through (organization_id, id) or (organization_id,
    // status, id), and say where the walk stopped when it examined its whole budget.
    // The key's rows count toward the budget like the status filter's, so the walk ends on a
    // row the key may see: the cursor made of walk_end never names an item its view hides.
    params.push(scanBudget);
    const budget = `$${params.length}`;
    return {
      sql: `WITH walk AS MATERIALIZED (
          SELECT id, search_text FROM items WHERE ${[filters, ...scope].join(' AND ')} ORDER BY id LIMIT ${budget}
        ), page AS MATERIALIZED (
          SELECT id FROM walk WHERE ${match} ORDER BY id LIMIT ${limit}
        ), walk_end AS (
          SELECT CASE WHEN count(*) = ${budget} THEN max(id) END AS walk_end FROM walk
        )
        SELECT page_items.*, walk_end.walk_end FROM walk_end LEFT JOIN (
          SELECT item.* FROM page CROSS JOIN LATERAL (
            SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = $1 AND id = page.id LIMIT 1
          ) AS item
        ) AS page_items ON true
        ORDER BY page_items.id`,
      params,
      walk: true,
    };
  }
  params.push(probeSize(query.limit));
  const probe = `$${params.length}`;
  params.push(sampleSize(query.limit));
  const sample = `$${params.length}`;
  // 3+ characters: always a full page. Two ways to one page, chosen at run time, neither of
  // which can walk the whole organization through the primary key:
  // - `quick`: the next `probe` rows in id order (a bounded index range), filtered. When the
  //   needle is common this already holds a full page, at a cost bounded by `probe`.
  // - `slow`, only when `quick` is not taken: every match, gathered in a MATERIALIZED CTE,
  //   which PostgreSQL plans on its own for all of its rows, so no LIMIT can tempt it into an
  //   ordered primary-key walk that filters row by row hoping to meet `limit` matches early
  //   (a walk of the whole organization when the needle is rare, or absent from it while
  //   common elsewhere). It takes the organization-scoped trigram index (a scan of the
  //   organization for needles shorter than a trigram) and sorts only the matching ids.
  // `verdict` looks at the first `sample` rows of the probe first: a needle found at most once
  // there is too rare for `quick` to fill a page (it would need 1 match in 20 rows), so it goes
  // to `slow` without reading the rest of the probe (a common needle is told by its first two
  // matches, so its page still reads only the rows it needs). A needle that fills a page in `quick`
  // shows in the sample with near certainty (at 1 in 20, P(at most 1 of 200) < 0.0004), and a
  // wrong guess costs time, never exactness: both paths give the same page.
  // A CTE runs only when read, and only as far as it is read: `quick` stops reading `probe` at
  // its LIMIT (with no ORDER BY, whose sort would read the whole probe first: a materialized
  // CTE is read back in the order it was written, which is `probe`'s id order), and the CASEs
  // (whose branches are evaluated in order, unlike OR and AND) count the whole probe only when
  // `quick` came up short, so a common needle reads the few hundred rows its page needs, not the
  // whole probe. `slow` is read only behind those checks.
  // The page's rows are then fetched one id at a time through the primary key (LATERAL with a
  // LIMIT, which PostgreSQL cannot flatten into a join, so the page is always the outer side):
  // planned as `id IN (SELECT id FROM page)`, a stale row
  // estimate for the organization (a bulk load before autovacuum's ANALYZE) made PostgreSQL walk
  // the whole organization through the primary key and match each row against the page (6.3 s,
  // 168,000 rows, while importing 1M items).
  return {
    sql: `WITH probe AS MATERIALIZED (
        SELECT id, search_text FROM items WHERE ${filters} ORDER BY id LIMIT ${probe}
      ), verdict AS MATERIALIZED (
        SELECT CASE
          WHEN (SELECT count(*) FROM (
                  SELECT 1 FROM (SELECT search_text FROM probe LIMIT ${sample}) AS first_rows
                  WHERE ${match} LIMIT 2) AS hits) >= 2 THEN false
          ELSE (SELECT count(*) FROM (SELECT 1 FROM probe LIMIT ${sample}) AS first_rows) = ${sample}
        END AS rare
      ), quick AS MATERIALIZED (
        SELECT id FROM probe WHERE ${match}${seen('probe')} LIMIT ${limit}
      ), slow AS MATERIALIZED (
        SELECT id FROM items WHERE ${[filters, ...scope].join(' AND ')} AND ${match}
      ), page AS (
        SELECT id FROM quick
        WHERE CASE WHEN (SELECT rare FROM verdict) THEN false
                   WHEN (SELECT count(*) FROM quick) >= ${limit} THEN true
                   ELSE (SELECT count(*) FROM probe) < ${probe} END
        UNION ALL
        (SELECT id FROM slow
         WHERE CASE WHEN (SELECT rare FROM verdict) THEN true
                    WHEN (SELECT count(*) FROM quick) >= ${limit} THEN false
                    ELSE (SELECT count(*) FROM probe) >= ${probe} END
         ORDER BY id LIMIT ${limit})
      )
      SELECT item.* FROM page CROSS JOIN LATERAL (
        SELECT ${ITEM_COLUMNS} FROM items WHERE organization_id = $1 AND id = page.id LIMIT 1
      ) AS item
      ORDER BY item.id`,
    params,
  };
}

/**
 * A search's LIKE on `searchText`, or, for a key whose view hides searchable fields, on the
 * parts of it the key may see and nothing else: never the whole text first, whose matches in
 * hidden fields would then be fetched and dropped, so that a needle in a hidden field costs
 * what an absent one does (each part is a column of its own in a trigram index, migration 13).
 */
function matchCondition(query: ItemQuery, searchText: string, pattern: string): string {
  return searchFieldsCondition(query.scope, searchText, pattern) ?? `${searchText} LIKE ${pattern}`;
}

const ITEM_COLUMNS_I = ITEM_COLUMNS.split(', ')
  .map((column) => `i.${column}`)
  .join(', ');

/**
 * A page of `location=CODE`: the keyset walk of the location's rows with more than 0
 * (item_stock_positive, in item id order), each item fetched through its primary key and
 * filtered by the other parameters. A search beside it tests the page's candidates with LIKE.
 *
 * The status filter is on the stock row, whose item's status the index holds (INCLUDE,
 * migration 10): the walk is an index-only scan that drops the other statuses, and only the
 * page's items are fetched. The items are what a page costs: each lives on its own heap page
 * (a location's items are spread over the whole organization), mostly outside shared_buffers
 * at 1M items. Filtered on the item instead, every stock row fetched its item first: 1.5 per
 * item kept for Active (70% of the benchmark's items; 0.82 -> 0.62 ms p50 of execution), 20
 * for Discontinued (5%: 2,000 fetches for a page of 100; 8.8 -> 1.9 ms p50, 34 -> 5 ms cold).
 * A rare status walks more index entries (still no item), each an item_stock heap fetch while
 * the visibility map is unset (after writes, until vacuum). Keying the index by status instead
 * walks exactly the page's entries, but then a page without a status must merge one walk per
 * status; measured no faster on the benchmark's statuses, so the simpler index stays.
 */
function locationListStatement(organizationId: string, query: ItemQuery): Statement | null {
  const params: unknown[] = [organizationId, query.location];
  const where = ['s.organization_id = $1', 's.location_code = $2', 's.quantity > 0'];
  const itemWhere = ['i.organization_id = $1', 'i.id = s.item_id'];
  const values = [query.location, query.sku, query.barcode, ...(query.ids ?? [])];
  if (values.some((v) => v?.includes('\u0000'))) return null;
  const add = (list: string[], condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    list.push(condition(`$${params.length}`));
  };
  if (query.afterId !== undefined) add(where, (p) => `s.item_id > ${p}`, query.afterId);
  if (query.ids !== undefined) add(where, (p) => `s.item_id = ANY(${p}::text[])`, query.ids);
  if (query.status !== undefined) add(where, (p) => `s.status = ${p}`, query.status);
  if (query.sku !== undefined) add(itemWhere, (p) => `i.sku = ${p}`, query.sku);
  if (query.barcode !== undefined) add(itemWhere, (p) => `i.barcode = ${p}`, query.barcode);
  if (query.search !== undefined) {
    if (unsearchable(query.search) || query.search.includes(FIELD_SEPARATOR)) return null;
    add(itemWhere, (p) => matchCondition(query, 'i.search_text', p), containsPattern(query.search));
  }
  itemWhere.push(...scopeConditions(query.scope, 'i', params));
  params.push(query.limit);
  // The item of each stock row through the primary key, one at a time (LATERAL with a LIMIT,
  // which PostgreSQL cannot flatten): planned as a join, it chose a merge join that walks the
  // organization's items from their first id, whatever the cursor. Picking the page's ids
  // first, then `id = ANY(…)`, would make the same primary-key lookups (not tried).
  return {
    sql: `SELECT item.* FROM item_stock s CROSS JOIN LATERAL (
        SELECT ${ITEM_COLUMNS_I} FROM items i WHERE ${itemWhere.join(' AND ')} LIMIT 1
      ) AS item
      WHERE ${where.join(' AND ')} ORDER BY s.item_id LIMIT $${params.length}`,
    params,
  };
}

/**
 * Rows the quick path reads at most: a needle in at least 1 of 20 rows fills its page there,
 * and a rarer one pays this walk before the index (about 1 ms per 1,000 rows on the
 * benchmark's 1M-item organization, more under load). 50 per item (5,050 rows at the default
 * page) served needles down to 2% but tripled the p50 of rare and absent needles in the
 * benchmark (9 -> 21 ms and 5 -> 18 ms at 4 connections).
 */
export function probeSize(limit: number): number {
  return Math.min(Math.max(limit * 20, 1000), 10_000);
}

/**
 * The first rows of the probe that tell a rare needle (at most one match among them) from one
 * `quick` may serve: a tenth of the probe, 200 at least.
 */
export function sampleSize(limit: number): number {
  return Math.max(200, Math.ceil(probeSize(limit) / 10));
}

/**
 * The SQL of one page of an organization's change feed, in one statement so that everything
 * comes from one snapshot: the organization's latest change number (`organization_seq`; no row
 * at all for an unknown organization), then up to `limit + 1` changed items and, with
 * `includeDeleted`, up to `limit + 1` tombstones after the position, each in change order
 * through (organization_id, change_seq) and the tombstones' primary key. A row with
 * `deleted_at` is a tombstone (its item id in `id`, its number in `change_seq`); a page with
 * no change is one row whose `change_seq` is null. store/changes.ts merges them. A page that
 * may pass over changes (skipsChanges) reads at most `scanBudget` of them, and every row says
 * where it stopped (`examined_through`, see below).
 */
export function changeListStatement(
  organizationId: string,
  query: ChangeQuery,
  scanBudget = DEFAULT_SCAN_BUDGET,
): Statement {
  const params: unknown[] = [organizationId, query.afterSeq, query.limit + 1];
  const budgeted = skipsChanges(query);
  let status = '';
  if (query.status !== undefined) {
    params.push(query.status);
    status = ` AND status = $${params.length}`;
  }
  let location = '';
  if (query.location !== undefined) {
    params.push(query.location);
    location = ` AND EXISTS (SELECT 1 FROM item_stock s WHERE s.organization_id = $1
      AND s.item_id = items.id AND s.location_code = $${params.length} AND s.quantity > 0)`;
  }
  // The key's scope: rows outside it are left out, or, when deletions are listed, read with
  // `in_scope` false, which makes them the key's deletions (store/changes.ts).
  const exits = query.includeDeleted && filtersRows(query.scope);
  const scope = scopeConditions(query.scope, 'items', params);
  const inScopeExpression = `(${['true', ...scope].join(' AND ')})`;
  const inScope = exits ? `, ${inScopeExpression} AS in_scope` : '';
  let scopeWhere = exits ? '' : scope.map((condition) => ` AND ${condition}`).join('');
  // Only the exits and tombstones the key could have seen are read (ChangeQuery.seenAfterSeq):
  // every row read is offered, so the page is full when rows follow it.
  let seenTombstone = '';
  if (exits && query.scope !== undefined && query.seenAfterSeq !== undefined) {
    scopeWhere = ` AND (${inScopeExpression} IS TRUE OR ${seenSinceCondition(
      query.scope,
      query.seenAfterSeq,
      { organization: 'items.organization_id', item: 'items.id', tombstone: null },
      params,
    )})`;
    seenTombstone = ` AND ${seenSinceCondition(
      query.scope,
      query.seenAfterSeq,
      {
        organization: 'item_tombstones.organization_id',
        item: 'item_tombstones.item_id',
        tombstone: 'item_tombstones.seq',
      },
      params,
    )}`;
  }
  const itemsWhere = `${status}${location}${scopeWhere}`;
  // A page that may pass over changes reads no further than its scan budget (ChangePage.more):
  // `examined` is where both reads stop, whatever they leave out on the way, carried by every
  // row as `examined_through` (null: to the feed's end). First a slice of the changes a full
  // page needs when most are offered (changeSliceSize), read on the indexes alone: when it
  // offers more than the page holds, the page ends within it; else the budget-th change, read
  // only then (a CASE evaluates its branches in order), so a page that fills early never reads
  // the whole budget. Null when fewer changes follow than the slice or the budget.
  let examined = '';
  let upTo = (_column: string) => '';
  if (budgeted) {
    params.push(changeSliceSize(query.limit, 0, scanBudget));
    const slice = `$${params.length}`;
    params.push(scanBudget);
    const budget = `$${params.length}`;
    const nth = (size: string) => {
      const feed = query.includeDeleted
        ? `(SELECT change_seq AS seq FROM items WHERE organization_id = $1 AND change_seq > $2
             ORDER BY change_seq LIMIT ${size})
           UNION ALL
           (SELECT seq FROM item_tombstones WHERE organization_id = $1 AND seq > $2
             ORDER BY seq LIMIT ${size})`
        : `SELECT change_seq AS seq FROM items WHERE organization_id = $1 AND change_seq > $2`;
      return `SELECT CASE WHEN count(*) = ${size} THEN max(seq) END AS through FROM (
          SELECT seq FROM (${feed}) AS feed ORDER BY seq LIMIT ${size}
        ) AS window_rows`;
    };
    const inSlice = (column: string) =>
      ` AND ${column} <= COALESCE((SELECT through FROM slice_end), 9223372036854775807)`;
    const offered = `SELECT count(*) FROM (
          (SELECT 1 FROM items WHERE organization_id = $1 AND change_seq > $2${inSlice('change_seq')}${itemsWhere} LIMIT $3)
          ${query.includeDeleted ? `UNION ALL (SELECT 1 FROM item_tombstones WHERE organization_id = $1 AND seq > $2${inSlice('seq')}${seenTombstone} LIMIT $3)` : ''}
        ) AS offered`;
    examined = `WITH slice_end AS MATERIALIZED (${nth(slice)}),
      examined AS MATERIALIZED (
        SELECT CASE
          WHEN (SELECT through FROM slice_end) IS NULL THEN NULL
          WHEN (${offered}) >= $3 THEN (SELECT through FROM slice_end)
          ELSE (SELECT through FROM (${nth(budget)}) AS budget_end)
        END AS through
      )
      `;
    upTo = (column) =>
      ` AND ${column} <= COALESCE((SELECT through FROM examined), 9223372036854775807)`;
  }
  const tombstones = query.includeDeleted
    ? `UNION ALL (
         SELECT organization_id, item_id, NULL, NULL, NULL, NULL, NULL, NULL::float8, NULL::text, NULL::json,
           NULL::bigint, NULL::bigint, seq, NULL::bigint, deleted_at${exits ? ', NULL::boolean' : ''}
         FROM item_tombstones WHERE organization_id = $1 AND seq > $2${upTo('seq')}${seenTombstone} ORDER BY seq LIMIT $3)`
    : '';
  return {
    sql: `${examined}SELECT o.change_seq AS organization_seq${budgeted ? ', (SELECT through FROM examined) AS examined_through' : ''}, page.*
      FROM organizations o
      LEFT JOIN (
        (SELECT ${ITEM_COLUMNS}, change_seq, created_seq, NULL::bigint AS deleted_at${inScope}
         FROM items WHERE organization_id = $1 AND change_seq > $2${upTo('change_seq')}${itemsWhere}
         ORDER BY change_seq LIMIT $3)
        ${tombstones}
      ) AS page ON true
      WHERE o.id = $1
      ORDER BY page.change_seq`,
    params,
    // Without a status filter the change index serves every page, whatever the position; with
    // one, a rare status may be better served otherwise, so that page is planned every time.
    name:
      query.status === undefined && query.location === undefined && scope.length === 0
        ? shapeName('change_page', { with_deleted: query.includeDeleted })
        : undefined,
  };
}
