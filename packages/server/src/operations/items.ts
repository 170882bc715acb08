import path from 'node:path';
import { ImportStoppedError } from '../items/errors.js';
import { type ImportOptions, type ImportResult, importItems } from '../items/import.js';
import { checkRecord } from '../items/validate.js';
import type { ItemFields, ItemRef, Organization, Store } from '../store/types.js';
import { type Actor, recordAudit } from './audit.js';

/**
 * Item writes shared by `stockroom items …` and the admin API: the same row validation
 * (items/validate.ts), the same store calls and the same audit events.
 */

/**
 * `stockroom items import FILE`: imports a file and records the import when it wrote rows,
 * also when it stopped midway (ImportStoppedError, rethrown): the event then carries the counts
 * committed before it stopped and `stopped`, the reason.
 */
export async function importItemsFile(
  store: Store,
  actor: Actor,
  organization: Organization,
  file: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  let result: ImportResult;
  try {
    result = await importItems(store, organization.id, path.resolve(file), options);
  } catch (error) {
    if (!(error instanceof ImportStoppedError)) throw error;
    const { created, updated, unchanged, failed } = error.committed;
    if (created + updated > 0) {
      try {
        await recordAudit(store, actor, {
          organizationId: organization.id,
          action: 'items.imported',
          target: null,
          details: {
            file: path.basename(file),
            created,
            updated,
            unchanged,
            failed,
            stopped: error.reason,
          },
        });
      } catch (auditFailure) {
        // The database that stopped the import may refuse this too: the caller says so.
        error.auditFailure = auditFailure;
      }
    }
    throw error;
  }
  if (result.created + result.updated > 0) {
    const { created, updated, unchanged, failed } = result;
    await recordAudit(store, actor, {
      organizationId: organization.id,
      action: 'items.imported',
      target: null,
      details: { file: path.basename(file), created, updated, unchanged, failed },
    });
  }
  return result;
}

/** `all-or-nothing`: one rejected row writes nothing. `per-row`: every valid row is written. */
export type UpsertMode = 'all-or-nothing' | 'per-row';

export type RowOutcome = 'created' | 'updated' | 'unchanged' | 'failed' | 'skipped';

export interface UpsertRowResult {
  /** 0-based position of the row in the request. */
  index: number;
  /** The row's sku when it has a valid one, else null. */
  sku: string | null;
  /**
   * What happened to the row (with dryRun: what would have). `skipped`: the row is valid, but
   * nothing was written because another row failed in all-or-nothing mode.
   */
  outcome: RowOutcome;
  /** Why the row failed: every problem of the row, naming the fields. */
  reason?: string;
}

export interface UpsertResult {
  mode: UpsertMode;
  dryRun: boolean;
  /** Whether anything was kept: false on a dry run or an all-or-nothing refusal. */
  committed: boolean;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** One entry per row, in request order. */
  rows: UpsertRowResult[];
}

type Checked = { index: number; sku: string | null } & (
  | { fields: ItemFields }
  | { reason: string }
);

/** Every row checked as `items import` checks a JSON record; a sku may appear once per request. */
function checkRows(records: readonly unknown[]): Checked[] {
  const firstIndex = new Map<string, number>();
  return records.map((value, index) => {
    const checked = checkRecord({ kind: 'json', line: index, value });
    const sku = 'fields' in checked ? checked.fields.sku : checked.sku;
    if (typeof sku === 'string') {
      const first = firstIndex.get(sku);
      if (first !== undefined) {
        return {
          index,
          sku,
          reason: `duplicate sku ${JSON.stringify(sku)} (first used by row ${first}); each sku may appear once per request`,
        };
      }
      firstIndex.set(sku, index);
    }
    const shownSku = typeof sku === 'string' ? sku : null;
    return 'fields' in checked
      ? { index, sku: shownSku, fields: checked.fields }
      : { index, sku: shownSku, reason: checked.reason };
  });
}

/**
 * Upserts rows by sku (rows without a sku are always created), in one store call (one
 * transaction). A row identical to what is stored is `unchanged`. In all-or-nothing mode (the
 * default) a single failed row, whether the check or the store rejects it, writes nothing and
 * every failed row is reported; in per-row mode the valid rows are written and the failed ones
 * reported. With `dryRun` the outcomes are computed and nothing is kept. Records an
 * `items.imported` audit event when rows were written.
 */
export async function upsertItems(
  store: Store,
  actor: Actor,
  organization: Organization,
  records: readonly unknown[],
  options: { mode?: UpsertMode; dryRun?: boolean } = {},
): Promise<UpsertResult> {
  const mode = options.mode ?? 'all-or-nothing';
  const dryRun = options.dryRun === true;
  const checked = checkRows(records);
  const valid = checked.filter((row): row is Checked & { fields: ItemFields } => 'fields' in row);
  const rejected = valid.length < checked.length;
  const atomic = mode === 'all-or-nothing';
  // All-or-nothing with a rejected row already writes nothing: a dry run still finds the rows
  // only the store can reject (a new sku without a name), so the answer names every one.
  const outcomes = await store.writeItems(
    organization.id,
    valid.map((row) => row.fields),
    dryRun || (atomic && rejected) ? { dryRun: true } : atomic ? { allOrNothing: true } : {},
  );
  const byIndex = new Map(valid.map((row, i) => [row.index, outcomes[i]] as const));
  const rows: UpsertRowResult[] = checked.map((row) => {
    if ('reason' in row) {
      return { index: row.index, sku: row.sku, outcome: 'failed', reason: row.reason };
    }
    const outcome = byIndex.get(row.index);
    if (outcome === undefined) throw new Error('writeItems answered fewer outcomes than rows');
    return typeof outcome === 'object'
      ? { index: row.index, sku: row.sku, outcome: 'failed', reason: outcome.error }
      : { index: row.index, sku: row.sku, outcome };
  });
  const failed = rows.filter((row) => row.outcome === 'failed').length;
  const refused = atomic && failed > 0;
  if (refused) {
    for (const row of rows) if (row.outcome !== 'failed') row.outcome = 'skipped';
  }
  const count = (outcome: RowOutcome) => rows.filter((row) => row.outcome === outcome).length;
  const result: UpsertResult = {
    mode,
    dryRun,
    committed: !dryRun && !refused,
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    failed,
    rows,
  };
  if (result.committed && result.created + result.updated > 0) {
    const { created, updated, unchanged } = result;
    await recordAudit(store, actor, {
      organizationId: organization.id,
      action: 'items.imported',
      target: null,
      details: { rows: records.length, mode, created, updated, unchanged, failed },
    });
  }
  return result;
}

export type { ItemRef } from '../store/types.js';

/** Deletes one item (leaving a sync tombstone) and records it; false when there was none. */
export async function deleteItem(
  store: Store,
  actor: Actor,
  organization: Organization,
  by: ItemRef,
): Promise<boolean> {
  if (!(await store.deleteItem(organization.id, by))) return false;
  await recordAudit(store, actor, {
    organizationId: organization.id,
    action: 'items.deleted',
    target: 'id' in by ? by.id : null,
    details: { ...by },
  });
  return true;
}

/**
 * Deletes items in one transaction (each leaving a sync tombstone: all of them, or none if the
 * database fails midway), then records one audit event per item that went. Returns, per ref,
 * whether an item went.
 */
export async function deleteItems(
  store: Store,
  actor: Actor,
  organization: Organization,
  refs: readonly ItemRef[],
): Promise<boolean[]> {
  const deleted = await store.deleteItems(organization.id, refs);
  for (const [i, by] of refs.entries()) {
    if (!deleted[i]) continue;
    await recordAudit(store, actor, {
      organizationId: organization.id,
      action: 'items.deleted',
      target: 'id' in by ? by.id : null,
      details: { ...by },
    });
  }
  return deleted;
}
