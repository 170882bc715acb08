import { createHash } from 'node:crypto';
import { isId } from '../ids.js';

/**
 * Keyset cursors: the last `_id` of a page plus a fingerprint of the filters it was made for,
 * so a cursor replayed with other filters is refused rather than silently returning a wrong
 * walk. (An id position reveals nothing about another organization, so no organization binding.)
 */
export interface CursorFilters {
  status: string | undefined;
  search: string | undefined;
}

function fingerprint(filters: CursorFilters): string {
  return createHash('sha256')
    .update(JSON.stringify([filters.status ?? null, filters.search ?? null]))
    .digest('base64url')
    .slice(0, 16);
}

export function encodeCursor(afterId: string, filters: CursorFilters): string {
  return Buffer.from(JSON.stringify({ v: 1, a: afterId, f: fingerprint(filters) })).toString(
    'base64url',
  );
}

interface DecodedCursor {
  afterId: string;
  fingerprint: string;
}

export function decodeCursor(token: string): DecodedCursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { v, a, f } = parsed as Record<string, unknown>;
    if (v !== 1 || typeof a !== 'string' || !isId(a) || typeof f !== 'string') return null;
    return { afterId: a, fingerprint: f };
  } catch {
    return null;
  }
}

export function cursorMatches(cursor: DecodedCursor, filters: CursorFilters): boolean {
  return cursor.fingerprint === fingerprint(filters);
}
