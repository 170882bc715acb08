import { DEFAULT_SCAN_BUDGET, isShortNeedle } from '../search.js';
import type { ItemQuery, SearchField } from '../types.js';
import type { SqliteStatement } from './driver.js';
import { scopeSql, searchFieldsSql, searchFieldTable } from './item-scope.js';

/**
 * Item search on SQLite: a substring match of the folded needle in `items.search_text`
 * (instr semantics: `%`, `_`, `\` literal, accents significant), made fast by the FTS5 trigram
 * index of migration 2 and bounded in every case. The pages follow the rule both engines share
 * (store/search.ts): a needle of 1–2 characters examines at most `scanBudget` rows and may
 * return a short page; a longer needle always returns a full page.
 *
 * Every plan is scoped to one organization before it reads anything: the item table through
 * its `(organization_id, id)` and `(organization_id, status, id)` indexes, the FTS5 index through
 * the organization's rowid range [lo, hi] (one range per organization, migration 2). Within a
 * range, rowids follow `_id` order: rows get the next rowid when written, with an id greater
 * than every id of their organization (ids.ts newIdAfter; migration 4 put older rows in order).
 *
 * Plans, for a page of `limit` items after a keyset position:
 * - needle of 1–2 characters (no trigram can index it): walk the organization in `_id` order
 *   testing instr, at most `scanBudget` rows. When the budget runs out first the page is
 *   returned short, with `onPartialPage` naming the last `_id` examined, so the next page
 *   resumes there. A walk still returns every match exactly once. The caller runs a walk in
 *   slices of `walkSliceRows` rows, a turn of the event loop between them (walkSlice).
 * - an organization with at most `scanBudget` rows (its size is read off its rowid range in
 *   O(log n)): walk all its rows in `_id` order testing instr. Never touches the FTS5 index, so
 *   a small organization's search costs what the organization holds, whatever else is stored.
 * - a larger organization, needle of 3+ characters: read the index's matches in the range,
 *   at most `ftsCandidateCap` of them. FTS5 seeks a start rowid well but does not stop at an
 *   upper bound, so the range is read from its cheaper end (fewer rows of other organizations
 *   beyond it) with a LIMIT, and cut in JavaScript. Fewer matches than the cap (a rare term, a
 *   rare combination of common trigrams, an absent term): fetch those rows by rowid, keep the
 *   true substring matches (instr; the phrase query already requires consecutive trigrams, the
 *   post-filter makes the answer exact) in rowid (= `_id`) order, stopping at the page's end.
 * - otherwise (a needle common in the organization): the whole-needle phrase query in rowid
 *   (= `_id`) order, from the cursor's rowid to the end of the range, post-filtered with instr,
 *   for as many matches as the page needs. FTS5 reads the doclists in rowid order and stops
 *   at the LIMIT, so a common needle costs a few hundred index entries: 0.8 ms for a page of
 *   "steel" (66,649 matches in 1M items), against 3.7 ms for the ordered walk this replaced.
 */

/** Width of one organization's rowid range. */
export const ORGANIZATION_SPAN = 2 ** 32;

export interface SearchLimits {
  /** From this many index matches in the organization on, the phrase query in rowid order is cheaper. */
  ftsCandidateCap: number;
  /** Rows one request may test in the ordered walk. */
  scanBudget: number;
  /** Rows the ordered walk tests in one turn of the event loop (see walkSlice). */
  walkSliceRows: number;
}

/**
 * Measured on the benchmark's 1M-item organization (BENCHMARKS.md): reading 1,000 candidates
 * off the index takes about 0.6 ms (5,000: 1.4–2.8 ms), and a common needle's page through the
 * phrase query in rowid order under 1 ms, so past 1,000 matches the index is not read whole.
 */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = {
  ftsCandidateCap: 1000,
  scanBudget: DEFAULT_SCAN_BUDGET,
  walkSliceRows: 1000,
};

/** How long the per-organization row estimates that pick a reading direction are kept. */
const EXTENTS_TTL_MS = 10_000;
/** Trigram document counts are estimated up to this many, and kept this long. */
const TRIGRAM_COUNT_CAP = 100_000;
const TRIGRAM_TTL_MS = 10 * 60_000;
const TRIGRAM_CACHE_ENTRIES = 50_000;
/** At most this many trigrams of a long needle are counted to choose where to look. */
const TRIGRAMS_SAMPLED = 10;
/**
 * The longest phrase looked up in the index: a longer needle is looked up by this many of its
 * characters (around its rarest sampled trigram), and the substring post-filter keeps the
 * answer exact. FTS5 reads every trigram's doclist of a phrase, so its cost grows with the
 * phrase's length: on 200k items that all contain ".....", a 200 × "." needle took 4.1 s to
 * find it absent, 12 of its characters 0.2 s (and 0.2 s more to walk the matches of "....."
 * in the phrase query in rowid order).
 */
export const MAX_PHRASE_CHARS = 12;
/** How long, and for how many needles at most, CommonNeedles remembers. */
const COMMON_NEEDLE_TTL_MS = 60_000;
const COMMON_NEEDLE_ENTRIES = 10_000;

export interface SearchStatements {
  /** A prepared statement in raw mode: rows come back as arrays. */
  stmt(sql: string): SqliteStatement;
}

/** A raw row: the columns asked for, `id` first. */
type Row = unknown[];

/** The FTS5 query for a folded needle: one phrase (consecutive trigrams), or null if < 3 chars. */
export function ftsPhrase(needle: string): string | null {
  if (isShortNeedle(needle)) return null;
  return `"${needle.replaceAll('"', '""')}"`;
}

export function organizationRange(organizationSeq: number): [number, number] {
  const lo = organizationSeq * ORGANIZATION_SPAN;
  return [lo, lo + ORGANIZATION_SPAN - 1];
}

/** Rows ever created in a range: rowids are handed out in order, so max - lo (O(log n)). */
function rowsIn(db: SearchStatements, lo: number, hi: number): number {
  const [max] = db.stmt('SELECT max(seq) FROM items WHERE seq BETWEEN ? AND ?').get(lo, hi) as [
    number | null,
  ];
  return max === null ? 0 : max - lo;
}

/**
 * Rows of the other organizations before and after one organization's range, estimated from
 * every organization's range, refreshed every few seconds (they only choose a direction).
 */
export class OrganizationExtents {
  private cached: { at: number; sizes: Array<[number, number]> } | null = null;

  constructor(private readonly db: SearchStatements) {}

  around(organizationSeq: number, now = Date.now()): { before: number; after: number } {
    if (!this.cached || now - this.cached.at > EXTENTS_TTL_MS) {
      const seqs = this.db.stmt('SELECT seq FROM organizations').all() as Array<[number]>;
      const sizes = seqs.map(([seq]): [number, number] => [
        seq,
        rowsIn(this.db, ...organizationRange(seq)),
      ]);
      this.cached = { at: now, sizes };
    }
    let before = 0;
    let after = 0;
    for (const [seq, size] of this.cached.sizes) {
      if (seq < organizationSeq) before += size;
      else if (seq > organizationSeq) after += size;
    }
    return { before, after };
  }
}

function phraseOf(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Which part of a needle to look up in the index. FTS5 reads the doclist of every trigram of
 * a phrase, so the phrase of a long needle made of common trigrams ("drill steel": each of its
 * nine trigrams is in 7–17% of the items, the whole phrase in 20 of a million) costs as much
 * as reading all those doclists. Two adjacent trigrams (4 characters) chosen for their rarity
 * are as selective and several times cheaper; the substring post-filter makes the answer
 * exact whatever part was looked up. Document counts per trigram are estimated (capped) and
 * cached: they only choose the part.
 */
export class TrigramStats {
  private readonly counts = new Map<string, { count: number; at: number }>();

  constructor(private readonly db: SearchStatements) {}

  count(trigram: string, now: number): number {
    const hit = this.counts.get(trigram);
    if (hit && now - hit.at < TRIGRAM_TTL_MS) return hit.count;
    const [count] = this.db
      .stmt('SELECT count(*) FROM (SELECT 1 FROM items_search WHERE items_search MATCH ? LIMIT ?)')
      .get(phraseOf(trigram), TRIGRAM_COUNT_CAP) as [number];
    if (this.counts.size >= TRIGRAM_CACHE_ENTRIES) this.counts.clear();
    this.counts.set(trigram, { count, at: now });
    return count;
  }

  /**
   * The phrases to try, most selective-for-its-cost first; last the whole needle's (at most
   * MAX_PHRASE_CHARS of it).
   */
  phrases(needle: string, now = Date.now()): string[] {
    const chars = [...needle];
    const trigrams = chars.length - 2;
    // Up to 3 trigrams (5 characters) the whole phrase is about as cheap as any part of it.
    if (trigrams <= 3) return [phraseOf(needle)];
    // The rarest of a sample of trigrams, then the rarer of its neighbours.
    const stride = Math.max(1, Math.ceil(trigrams / TRIGRAMS_SAMPLED));
    const at = (i: number) => this.count(chars.slice(i, i + 3).join(''), now);
    let best = 0;
    let bestCount = Number.POSITIVE_INFINITY;
    for (let i = 0; i < trigrams; i += stride) {
      const count = at(i);
      if (count < bestCount) {
        best = i;
        bestCount = count;
      }
    }
    const window = (start: number) => phraseOf(chars.slice(start, start + 4).join(''));
    // The needle's own phrase, cut to MAX_PHRASE_CHARS around its rarest trigram.
    const from = Math.min(
      Math.max(0, best - Math.floor((MAX_PHRASE_CHARS - 3) / 2)),
      Math.max(0, chars.length - MAX_PHRASE_CHARS),
    );
    const whole = phraseOf(chars.slice(from, from + MAX_PHRASE_CHARS).join(''));
    if (best === 0) return [window(0), whole];
    if (best === trigrams - 1) return [window(best - 1), whole];
    const windows =
      at(best - 1) <= at(best + 1)
        ? [window(best - 1), window(best)]
        : [window(best), window(best - 1)];
    return [...windows, whole];
  }
}

/**
 * Phrases found common in an organization (the index held `ftsCandidateCap` matches or more),
 * remembered for a while so that the next pages skip counting their candidates (0.6 ms of a
 * page of "steel" at 1M items): a needle whose whole phrase is common goes straight to the
 * phrase query in rowid order, and one whose parts are common skips to the next part. Every
 * plan returns the exact page; this only chooses, so a phrase that has since become rare
 * costs at most a longer read of the index until the entry expires.
 */
export class CommonNeedles {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = COMMON_NEEDLE_TTL_MS,
    private readonly maxEntries = COMMON_NEEDLE_ENTRIES,
  ) {}

  has(organizationSeq: number, needle: string, now: number): boolean {
    const at = this.seen.get(`${organizationSeq}:${needle}`);
    return at !== undefined && now - at < this.ttlMs;
  }

  add(organizationSeq: number, needle: string, now: number): void {
    if (this.seen.size >= this.maxEntries) this.seen.clear();
    this.seen.set(`${organizationSeq}:${needle}`, now);
  }
}

/**
 * Filters on `items` beyond the search itself, as SQL and parameters: the status, the cursor
 * and the key's scope (including which fields the needle may match).
 */
function filters(alias: string, query: ItemQuery): { sql: string; params: unknown[] } {
  let sql = '';
  const params: unknown[] = [];
  if (query.status !== undefined) {
    sql += ` AND ${alias}.status = ?`;
    params.push(query.status);
  }
  if (query.afterId !== undefined) {
    sql += ` AND ${alias}.id > ?`;
    params.push(query.afterId);
  }
  const residual = scopeFilters(alias, query);
  return { sql: sql + residual.sql, params: [...params, ...residual.params] };
}

/** The key's scope on a search's rows: its row filters, and the fields the needle may match. */
function scopeFilters(alias: string, query: ItemQuery): { sql: string; params: unknown[] } {
  const rows = scopeSql(query.scope, alias);
  const visible = searchFieldsSql(query.scope, alias, query.search ?? '');
  return { sql: rows.sql + visible.sql, params: [...rows.params, ...visible.params] };
}

/**
 * The organization's index matches for a phrase, or null when there are `cap` or more.
 * The phrase may be part of the needle: the candidates are then a superset of the matches.
 * Rows written but not indexed yet (a bulk load in progress) are included as candidates.
 */
function indexCandidates(
  db: SearchStatements,
  extents: OrganizationExtents,
  organizationSeq: number,
  phrase: string,
  cap: number,
  index = 'items_search',
): number[] | null {
  const [lo, hi] = organizationRange(organizationSeq);
  const { before, after } = extents.around(organizationSeq);
  const forward = before <= after;
  const from = forward ? lo : hi;
  const sql = forward
    ? `SELECT rowid FROM ${index} WHERE ${index} MATCH ? AND rowid >= ? ORDER BY rowid`
    : `SELECT rowid FROM ${index} WHERE ${index} MATCH ? AND rowid <= ? ORDER BY rowid DESC`;
  const rowids = db.stmt(`${sql} LIMIT ?`).pluck().all(phrase, from, cap) as number[];
  const inRange = rowids.filter((rowid) => rowid >= lo && rowid <= hi);
  // All `cap` rows inside the range: there may be more, the needle is common here.
  if (inRange.length >= cap) return null;
  const pending = db
    .stmt('SELECT seq FROM items_search_pending WHERE seq BETWEEN ? AND ? LIMIT ?')
    .pluck()
    .all(lo, hi, cap) as number[];
  if (inRange.length + pending.length >= cap) return null;
  return pending.length === 0 ? inRange : [...inRange, ...pending];
}

/**
 * What a search page takes: rows read at once by one of the index plans, or an ordered walk,
 * which the caller runs slice by slice (walkSlice) with turns of the event loop between them.
 * `budget` is the rows the walk may examine before it answers a short page; null walks the
 * whole organization (one small enough that its walk is bounded anyway).
 */
export type SearchPlan = { rows: Row[] } | { walk: { budget: number | null } };

/**
 * Plans a search page, reading it at once when an index plan serves it. `columns` are the
 * item columns to return, qualified with `i.`, `i.id` first. Rows come in `_id` order.
 */
export function searchItems(
  db: SearchStatements,
  stats: { extents: OrganizationExtents; trigrams: TrigramStats; common: CommonNeedles },
  columns: string,
  organizationId: string,
  organizationSeq: number,
  needle: string,
  query: ItemQuery,
  limits: SearchLimits = DEFAULT_SEARCH_LIMITS,
): SearchPlan {
  const [lo, hi] = organizationRange(organizationSeq);
  const size = rowsIn(db, lo, hi);
  if (ftsPhrase(needle) === null) return { walk: { budget: limits.scanBudget } };
  if (size <= limits.scanBudget) return { walk: { budget: null } };
  const fields = query.scope?.searchFields;
  if (fields !== undefined) {
    return searchVisibleFields(
      db,
      stats.extents,
      columns,
      organizationId,
      organizationSeq,
      needle,
      query,
      {
        fields,
        cap: limits.ftsCandidateCap,
        common: stats.common,
      },
    );
  }
  const now = Date.now();
  const parts = stats.trigrams.phrases(needle, now);
  // The whole needle's phrase (at most MAX_PHRASE_CHARS of it).
  const phrase = parts[parts.length - 1] as string;
  if (!stats.common.has(organizationSeq, phrase, now)) {
    let candidates: number[] | null = null;
    // The last part is the whole needle's phrase; a part known to be common is not counted
    // again ("drill steel" tries "dril" and "l st", each in 7-17% of the items, first).
    for (const part of parts) {
      if (stats.common.has(organizationSeq, part, now)) continue;
      candidates = indexCandidates(
        db,
        stats.extents,
        organizationSeq,
        part,
        limits.ftsCandidateCap,
      );
      if (candidates !== null) break;
      stats.common.add(organizationSeq, part, now);
    }
    if (candidates !== null) {
      if (candidates.length === 0) return { rows: [] };
      const extra = filters('i', query);
      const rows = db
        .stmt(
          `SELECT ${columns} FROM items i
           WHERE i.seq IN (SELECT value FROM json_each(?))
             AND +i.organization_id = ? AND instr(i.search_text, ?) > 0${extra.sql}
           ORDER BY i.seq LIMIT ?`,
        )
        .all(
          JSON.stringify(candidates),
          organizationId,
          needle,
          ...extra.params,
          query.limit,
        ) as Row[];
      return { rows };
    }
  }
  // Common in the organization: its matches in rowid (= `_id`) order from the cursor on, which
  // stops at the page's last match (a few hundred index entries for a common needle).
  const rows = phraseAfter(
    db,
    columns,
    phrase,
    needle,
    seqAfter(db, organizationId, query.afterId, lo),
    hi,
    query,
    query.limit,
  );
  return { rows };
}

/**
 * The rowid a page after `afterId` starts after: that of the greatest `_id` up to it (the
 * cursor's item may have been deleted since), or just below the range.
 */
function seqAfter(
  db: SearchStatements,
  organizationId: string,
  afterId: string | undefined,
  lo: number,
): number {
  if (afterId === undefined) return lo - 1;
  const row = db
    .stmt('SELECT seq FROM items WHERE organization_id = ? AND id <= ? ORDER BY id DESC LIMIT 1')
    .get(organizationId, afterId) as [number] | undefined;
  return row ? row[0] : lo - 1;
}

/**
 * The matches after a rowid, to the end of the organization's range, in rowid order: index
 * matches of the whole-needle phrase and rows still queued for the index, kept when instr
 * (and the status filter) agree, `want` at most. Two queries merged here: one statement with
 * UNION ALL would be sorted as a whole (every match of a common needle read first), while each
 * alone streams in rowid order and stops at its LIMIT.
 */
function phraseAfter(
  db: SearchStatements,
  columns: string,
  phrase: string,
  needle: string,
  afterSeq: number,
  hi: number,
  query: ItemQuery,
  want: number,
  index = 'items_search',
): Row[] {
  const scope = scopeFilters('i', query);
  const status = (query.status === undefined ? '' : ' AND i.status = ?') + scope.sql;
  const statusParams = [...(query.status === undefined ? [] : [query.status]), ...scope.params];
  // Under a view that hides searchable fields, scope.sql tests the needle on the visible ones
  // alone (searchFieldsSql); the whole search_text is not read.
  const visibleOnly = query.scope?.searchFields !== undefined;
  const match = visibleOnly ? '' : ' AND instr(i.search_text, ?) > 0';
  const matchParams = visibleOnly ? [] : [needle];
  const indexed = db
    .stmt(
      `SELECT ${columns}, i.seq FROM ${index} f CROSS JOIN items i ON i.seq = f.rowid
       WHERE ${index} MATCH ? AND f.rowid > ? AND f.rowid <= ?${match}${status}
       ORDER BY f.rowid LIMIT ?`,
    )
    .all(phrase, afterSeq, hi, ...matchParams, ...statusParams, want) as Row[];
  const queued = db
    .stmt(
      `SELECT ${columns}, i.seq FROM items_search_pending p CROSS JOIN items i ON i.seq = p.seq
       WHERE p.seq > ? AND p.seq <= ?${match}${status}
       ORDER BY p.seq LIMIT ?`,
    )
    .all(afterSeq, hi, ...matchParams, ...statusParams, want) as Row[];
  const seqOf = (row: Row) => row[row.length - 1] as number;
  const merged =
    queued.length === 0 ? indexed : [...indexed, ...queued].sort((a, b) => seqOf(a) - seqOf(b));
  return merged.slice(0, want).map((row) => row.slice(0, -1));
}

/**
 * A search page (needle of 3+ characters) for a key whose view hides some searchable fields:
 * the same plans as searchItems, on the per-field indexes of the fields the key may see
 * (migration 13), their matches merged in rowid (= `_id`) order, each row tested on those
 * fields alone. Neither the whole-text index nor search_text's hidden parts are read, so a
 * needle found only in hidden text costs what an absent one does (docs: Key views).
 */
function searchVisibleFields(
  db: SearchStatements,
  extents: OrganizationExtents,
  columns: string,
  organizationId: string,
  organizationSeq: number,
  needle: string,
  query: ItemQuery,
  {
    fields,
    cap,
    common: known,
  }: { fields: readonly SearchField[]; cap: number; common: CommonNeedles },
): SearchPlan {
  const [lo, hi] = organizationRange(organizationSeq);
  const phrase = phraseOf([...needle].slice(0, MAX_PHRASE_CHARS).join(''));
  const indexes = fields.map(searchFieldTable);
  const candidates = new Set<number>();
  // As in searchItems, a phrase found common in a field's index skips the counting next time.
  const now = Date.now();
  let common = indexes.some((index) => known.has(organizationSeq, `${index}:${phrase}`, now));
  for (const index of common ? [] : indexes) {
    const found = indexCandidates(db, extents, organizationSeq, phrase, cap, index);
    if (found === null) {
      known.add(organizationSeq, `${index}:${phrase}`, now);
      common = true;
      break;
    }
    for (const seq of found) candidates.add(seq);
  }
  if (!common) {
    if (candidates.size === 0) return { rows: [] };
    const extra = filters('i', query);
    const rows = db
      .stmt(
        `SELECT ${columns} FROM items i
         WHERE i.seq IN (SELECT value FROM json_each(?)) AND +i.organization_id = ?${extra.sql}
         ORDER BY i.seq LIMIT ?`,
      )
      .all(JSON.stringify([...candidates]), organizationId, ...extra.params, query.limit) as Row[];
    return { rows };
  }
  // Each field's first matches after the cursor; an item matching in two fields comes twice.
  // The page is the first `limit` distinct items of the merge: every one of them is among the
  // first `limit` matches of a field it matches in.
  const afterSeq = seqAfter(db, organizationId, query.afterId, lo);
  const seen = new Map<string, Row>();
  for (const index of indexes) {
    for (const row of phraseAfter(
      db,
      `${columns}, i.seq`,
      phrase,
      needle,
      afterSeq,
      hi,
      query,
      query.limit,
      index,
    )) {
      seen.set(row[0] as string, row);
    }
  }
  const rows = [...seen.values()]
    .sort((a, b) => (a[a.length - 1] as number) - (b[b.length - 1] as number))
    .slice(0, query.limit)
    .map((row) => row.slice(0, -1));
  return { rows };
}

export interface WalkSlice {
  /** The matches among the rows examined, in `_id` order, `want` at most. */
  rows: Row[];
  /**
   * The `_id` of the slice's last row, where the next slice starts; null when the
   * organization (with the status filter) ended within the slice.
   */
  lastExamined: string | null;
}

/**
 * One slice of the ordered walk: the next `examine` rows of the organization after `afterId`
 * in `_id` order (with the status filter), tested with instr. The slice's end is found first
 * on the index alone ((organization_id, id) or (organization_id, status, id)), then the rows
 * up to it are read through the same index and tested; only the matches' columns are read
 * out. A walk of 10,000 rows read in one statement held the event loop for 10-19 ms (bench,
 * "search 2-char rare"); slices of 1,000 rows hold it about a tenth of that.
 */
export function walkSlice(
  db: SearchStatements,
  columns: string,
  organizationId: string,
  needle: string,
  query: ItemQuery,
  afterId: string | undefined,
  examine: number,
  want: number,
): WalkSlice {
  const params: unknown[] = [organizationId];
  if (query.status !== undefined) params.push(query.status);
  if (afterId !== undefined) params.push(afterId);
  const filtered = { status: query.status !== undefined, after: afterId !== undefined };
  // The key's rows count toward the budget like the status filter's: the slice ends on a row
  // the key may see, so the cursor made of it never names an item its view hides.
  const rowScope = scopeSql(query.scope, 'i');
  const end = db
    .stmt(walkSliceSql(columns, { ...filtered, bounded: false }, '', rowScope.sql).end)
    .pluck()
    .get(...params, ...rowScope.params, examine - 1) as string | undefined;
  const visible = searchFieldsSql(query.scope, 'i', needle);
  const rows = db
    .stmt(
      walkSliceSql(
        columns,
        { ...filtered, bounded: end !== undefined },
        visible.sql,
        rowScope.sql,
        visible.sql !== '',
      ).rows,
    )
    .all(
      ...params,
      ...(end === undefined ? [] : [end]),
      ...(visible.sql !== '' ? [] : [needle]),
      ...visible.params,
      ...rowScope.params,
      want,
    ) as Row[];
  return { rows: inIdOrder(rows), lastExamined: end ?? null };
}

/**
 * The two statements of a walk slice (exported for the plan tests). Parameters: organization,
 * status if filtered, the `_id` after which it starts if any; then `end`: the parameters of
 * `rowScope` (the key's row filters on `i`), the offset of the slice's last row; `rows`: that
 * row's `_id` if bounded, the needle unless `visibleOnly`, the parameters of `match` (the
 * needle on the fields the key may search) and of `rowScope`, the limit. With `visibleOnly` the
 * needle is tested on the visible fields alone, never on the whole search_text: text the key's
 * view hides is not searched at all, so how long a search takes says nothing about it.
 */
export function walkSliceSql(
  columns: string,
  shape: { status: boolean; after: boolean; bounded: boolean },
  match = '',
  rowScope = '',
  visibleOnly = false,
): { end: string; rows: string } {
  const where = `i.organization_id = ?${shape.status ? ' AND i.status = ?' : ''}${shape.after ? ' AND i.id > ?' : ''}`;
  // Left to choose, the planner reads a status filter's rows through (organization_id, id),
  // testing every status on the way.
  const index = shape.status ? ' INDEXED BY items_organization_status' : '';
  const needle = visibleOnly ? match.slice(' AND '.length) : `instr(i.search_text, ?) > 0${match}`;
  return {
    end: `SELECT i.id FROM items i WHERE ${where}${rowScope} ORDER BY i.id LIMIT 1 OFFSET ?`,
    rows: `SELECT ${columns} FROM items i${index}
       WHERE ${where}${shape.bounded ? ' AND i.id <= ?' : ''} AND ${needle}${rowScope}
       ORDER BY i.id LIMIT ?`,
  };
}

/** Rows sorted by `_id` (the first column); already so in every plan, kept a checked fact. */
function inIdOrder(rows: Row[]): Row[] {
  for (let k = 1; k < rows.length; k++) {
    if ((rows[k - 1]?.[0] as string) > (rows[k]?.[0] as string)) {
      return rows.sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
    }
  }
  return rows;
}
