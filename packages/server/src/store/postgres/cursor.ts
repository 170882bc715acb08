import type pg from 'pg';
import Cursor from 'pg-cursor';
import type { Row } from '../rows.js';
import { nextTurn } from '../turns.js';
import { StoreUnavailableError } from '../types.js';
import type { DatabaseAvailability } from './availability.js';
import { toStoreError } from './errors.js';
import { ROW_TYPES } from './pool.js';

/** Rows per fetch of a list page, a turn of the event loop between fetches (listItemSlices). */
export const LIST_SLICE_ROWS = 100;

/** Whether node-postgres still considers the connection usable (its `_queryable` flag). */
function isQueryable(client: pg.PoolClient): boolean {
  const state = client as unknown as { _queryable?: boolean; _ending?: boolean; _ended?: boolean };
  return state._queryable !== false && state._ending !== true && state._ended !== true;
}

/**
 * `work` on `client`, or a StoreUnavailableError when the connection breaks first or nothing
 * settles within `deadlineMs`: pg-cursor waits for the server's answer (its rows, or the
 * ReadyForQuery after a close), which a connection that dies meanwhile never delivers.
 */
function untilBroken<T>(work: Promise<T>, client: pg.PoolClient, deadlineMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      client.off('error', onGone);
      client.off('end', onGone);
    };
    const onGone = () => {
      settle();
      reject(
        new StoreUnavailableError('the database connection broke', {
          cause: new Error('Connection terminated unexpectedly'),
        }),
      );
    };
    const timer = setTimeout(() => {
      settle();
      reject(new StoreUnavailableError('the database did not answer within its deadline'));
    }, deadlineMs);
    client.once('error', onGone);
    client.once('end', onGone);
    work.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

/**
 * Ends node-postgres' client-side deadline (query_timeout) of a finished cursor. pg arms a timer
 * for every query and disarms it when the query's `callback` runs, which pg-cursor never calls
 * (node-postgres#3497): the timer, holding the cursor and the last rows it read, lived for the
 * whole deadline (10 s) after every page. At 32 connections of limit=50 pages that kept about
 * ten seconds of pages alive: RSS reached 2.6 GB. pg installs the callback that disarms it.
 */
function disarmReadTimeout(cursor: Cursor<Row>): void {
  (cursor as unknown as { callback?: () => void }).callback?.();
}

/**
 * The rows of one statement through a cursor, 100 per fetch with a turn of the event loop
 * between fetches, so no turn parses a whole large page (pg-cursor runs unnamed statements
 * only). Closed, and its connection given back, also when the reader stops early.
 */
export async function* cursorRows(
  on: { pool: pg.Pool; availability: DatabaseAvailability; readDeadlineMs: number },
  sql: string,
  params: unknown[],
): AsyncGenerator<Row[]> {
  const { pool, availability, readDeadlineMs } = on;
  if (pool.ended) throw new StoreUnavailableError('the database connection is closed');
  const startedAt = Date.now();
  // A client broken while idle may still be handed out once (its connection ended without
  // an error event): it is discarded, and another one taken.
  let client: pg.PoolClient | null = null;
  for (let attempt = 0; client === null; attempt++) {
    const candidate = await pool.connect().catch((error: unknown) => {
      availability.failed(error, startedAt);
      throw toStoreError(error);
    });
    if (isQueryable(candidate)) client = candidate;
    else {
      candidate.release(true);
      if (attempt >= 2) {
        const error = new Error('Connection terminated unexpectedly');
        availability.failed(error, startedAt);
        throw toStoreError(error);
      }
    }
  }
  const cursor = client.query(new Cursor<Row>(sql, params, { types: ROW_TYPES }));
  let broken = false;
  try {
    for (;;) {
      // Bounded here too: a cursor on a connection that broke at the wrong moment was seen
      // never to settle (the server gone, no error delivered to it), holding its request
      // and its connection forever.
      const rows = await untilBroken(cursor.read(LIST_SLICE_ROWS), client, readDeadlineMs).catch(
        (error: unknown) => {
          broken = true;
          availability.failed(error, startedAt);
          throw toStoreError(error);
        },
      );
      availability.succeeded(startedAt);
      if (rows.length > 0) yield rows;
      if (rows.length < LIST_SLICE_ROWS) return;
      await nextTurn();
    }
  } finally {
    // The portal is closed before the connection goes back. On a broken connection nothing
    // would ever answer the close (pg-cursor waits for ReadyForQuery): skip it.
    if (!broken && isQueryable(client)) {
      await untilBroken(cursor.close(), client, readDeadlineMs).catch(() => {
        broken = true;
      });
    }
    disarmReadTimeout(cursor);
    client.release(broken || !isQueryable(client));
  }
}
