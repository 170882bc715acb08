import { createHash } from 'node:crypto';
import { isId } from '../ids.js';

/**
 * Cursors: where the next page starts plus a fingerprint of the filters the page was made for,
 * so a cursor replayed with other filters is refused rather than silently returning a wrong
 * walk. A walk in `_id` order holds the last `_id`; a sync walk (`updatedSince`) the last change
 * sequence number. (Neither reveals anything about another organization: no organization binding.)
 */
export interface CursorFilters {
  status: string | undefined;
  search: string | undefined;
  sku?: string | undefined;
  barcode?: string | undefined;
  ids?: string | undefined;
  location?: string | undefined;
  /** Whether the walk is a sync (updatedSince), and whether it lists deletions. */
  sync?: boolean;
  includeDeleted?: boolean;
}

function fingerprint(filters: CursorFilters): string {
  const base: unknown[] = [filters.status ?? null, filters.search ?? null];
  const { sku, barcode, ids, location, sync, includeDeleted } = filters;
  // Cursors of the original filters keep the fingerprint they always had.
  const extended =
    sku !== undefined ||
    barcode !== undefined ||
    ids !== undefined ||
    sync === true ||
    location !== undefined
      ? [
          ...base,
          sku ?? null,
          barcode ?? null,
          ids ?? null,
          sync === true,
          includeDeleted === true,
          ...(location === undefined ? [] : [location]),
        ]
      : base;
  return createHash('sha256').update(JSON.stringify(extended)).digest('base64url').slice(0, 16);
}

export function encodeCursor(afterId: string, filters: CursorFilters): string {
  return Buffer.from(JSON.stringify({ v: 1, a: afterId, f: fingerprint(filters) })).toString(
    'base64url',
  );
}

/**
 * `viewVersion`: the version of the key view the sync walk applied from its first page,
 * carried to its last page's nextSince (api/sync.ts).
 */
export function encodeSyncCursor(
  afterSeq: number,
  filters: CursorFilters,
  viewVersion: number,
): string {
  return Buffer.from(
    JSON.stringify({
      v: 1,
      s: afterSeq,
      f: fingerprint({ ...filters, sync: true }),
      w: viewVersion,
    }),
  ).toString('base64url');
}

export type DecodedCursor = { fingerprint: string } & (
  | { afterId: string; afterSeq?: undefined; viewVersion?: undefined }
  | { afterSeq: number; afterId?: undefined; viewVersion?: number }
);

export function decodeCursor(token: string): DecodedCursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { v, a, s, f, w } = parsed as Record<string, unknown>;
    if (v !== 1 || typeof f !== 'string') return null;
    if (typeof a === 'string' && isId(a) && s === undefined) return { afterId: a, fingerprint: f };
    if (typeof s === 'number' && Number.isSafeInteger(s) && s >= 0 && a === undefined) {
      if (w === undefined) return { afterSeq: s, fingerprint: f };
      if (typeof w !== 'number' || !Number.isSafeInteger(w) || w < 0) return null;
      return { afterSeq: s, fingerprint: f, viewVersion: w };
    }
    return null;
  } catch {
    return null;
  }
}

export function cursorMatches(cursor: DecodedCursor, filters: CursorFilters): boolean {
  return cursor.fingerprint === fingerprint(filters);
}
