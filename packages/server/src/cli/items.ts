import { type Command, Option } from 'commander';
import { ImportFileError, ImportStoppedError } from '../items/errors.js';
import type { ImportResult } from '../items/import.js';
import { cliActor } from '../operations/audit.js';
import { deleteItem, importItemsFile } from '../operations/items.js';
import type { ItemRef } from '../store/types.js';
import { type ConfirmOptions, confirm, confirmable } from './confirm.js';
import { contextOf, resolvePath, withStore } from './context.js';
import { CliError, toCliError, usageError } from './errors.js';
import { listenForStop } from './interrupt.js';
import { lookupOrganization } from './lookup.js';
import { createProgress } from './progress.js';
import { parseId, parseSku } from './values.js';

/** "1 row", "2 rows". */
function rows(count: number): string {
  return `${count} ${count === 1 ? 'row' : 'rows'}`;
}

function counts(result: ImportResult): string {
  return `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.failed} failed`;
}

/** The human report: one summary line, then one line per rejected row. */
function report(file: string, slug: string, result: ImportResult, strict: boolean): string {
  const summary =
    strict && result.failed > 0
      ? `Nothing imported from ${file} into ${slug} (--strict): ${rows(result.failed)} rejected`
      : `Imported ${file} into ${slug}: ${counts(result)}`;
  return [summary, ...result.errors.map((e) => `  line ${e.line}: ${e.reason}`)].join('\n');
}

/**
 * An import that stopped midway: one line naming the file, the cause, what was committed and
 * whether the audit log has it; the code is the cause's (DATABASE_ERROR, INVALID_FILE, …).
 */
export function stoppedError(file: string, error: ImportStoppedError): CliError {
  const { created, updated } = error.committed;
  const audit =
    created + updated === 0
      ? ''
      : error.auditFailure === undefined
        ? ' (recorded in the audit log as items.imported)'
        : '; the audit event for them could not be recorded either';
  return new CliError(toCliError(error.cause).code, `${file}: ${error.message}${audit}`, {
    details: { ...error.committed, stopped: true },
  });
}

export function registerItems(program: Command): void {
  const items = program
    .command('items')
    .description('import items from a file and delete items')
    .summary('manage inventory items');

  items
    .command('import')
    .description(
      'import items from a JSON array, NDJSON or CSV file (header row; customFields as one JSON cell); upserts by sku',
    )
    .argument('<FILE>', 'file to import (.json, .ndjson/.jsonl, .csv; otherwise sniffed)')
    .requiredOption('--org <ORG>', 'organization id or slug')
    .option('--strict', 'check the whole file first and write nothing if any row is rejected')
    .addHelpText(
      'after',
      `
Fields: name, description, sku, barcode, status, quantity, customFields. The API's _id,
organizationId, createdAt and updatedAt are accepted and ignored; any other CSV column is an
error of the file, any other JSON field rejects its row.
Rows with a sku that exists are updated, others created; rows without a sku are always created.
A column absent from the file leaves that field as stored. An empty CSV cell sets null
(description, sku, barcode), {} (customFields), or leaves the field as if its column were absent
(status, quantity: Draft and 0 for a new item); an empty name is a rejected row, and a row of
empty cells is skipped. A sku may appear once per file.
Rejected rows are listed with their line number and the command exits 1; a malformed file, or
one that is not UTF-8, writes nothing. Ctrl-C (SIGINT) or SIGTERM finishes the batch in flight,
records what was committed in the audit log and exits 1 (INTERRUPTED).`,
    )
    .action(async (file: string, opts: { org: string; strict?: boolean }, command: Command) => {
      const context = contextOf(command);
      const strict = opts.strict === true;
      const progress = createProgress(context.io.stderr);
      const { result, slug } = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, opts.org);
        // From here on, SIGINT and SIGTERM finish the batch in flight and report what was kept.
        const stop = context.io.signals && listenForStop(context.io.signals);
        try {
          const result = await importItemsFile(
            store,
            cliActor(),
            organization,
            resolvePath(context, file),
            {
              strict,
              onProgress: (p) => progress.update(p),
              ...(stop && { signal: stop.signal }),
            },
          );
          return { result, slug: organization.slug };
        } catch (error) {
          // Name the file in the one stderr line: "items.csv, line 7: invalid CSV: …".
          if (error instanceof ImportFileError) {
            const where = error.line === undefined ? file : `${file}, line ${error.line}`;
            throw new CliError('INVALID_FILE', `${where}: ${error.reason}`);
          }
          if (error instanceof ImportStoppedError) throw stoppedError(file, error);
          throw error;
        } finally {
          stop?.release();
          progress.stop();
        }
      });
      const first = result.errors[0];
      if (first) {
        const total = result.created + result.updated + result.unchanged + result.failed;
        const what = strict
          ? `${rows(result.failed)} rejected; nothing was imported (--strict)`
          : `${result.failed} of ${rows(total)} rejected`;
        // The stderr line names the first problem; stdout (or the JSON object) has them all.
        throw new CliError(
          'IMPORT_ROWS_FAILED',
          `${what}; first: line ${first.line}: ${first.reason}`,
          {
            details: { ...result },
            report: report(file, slug, result, strict),
          },
        );
      }
      context.out.success({ ...result }, report(file, slug, result, strict));
    });

  confirmable(
    items
      .command('delete')
      .description('delete one item by sku or by id (asks first on a terminal)')
      .requiredOption('--org <ORG>', 'organization id or slug')
      .addOption(
        new Option('--sku <SKU>', 'the item sku (this or --id)')
          .argParser(parseSku)
          .conflicts('id'),
      )
      .addOption(new Option('--id <ID>', 'the item id (this or --sku)').argParser(parseId)),
  ).action(
    async (opts: { org: string; sku?: string; id?: string } & ConfirmOptions, command: Command) => {
      const context = contextOf(command);
      if (opts.sku === undefined && opts.id === undefined) {
        throw usageError('pass --sku SKU or --id ID to say which item to delete');
      }
      const by: ItemRef = opts.id !== undefined ? { id: opts.id } : { sku: opts.sku as string };
      const what = 'id' in by ? `id ${by.id}` : `sku ${JSON.stringify(by.sku)}`;
      const slug = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, opts.org);
        const notFound = () =>
          new CliError('ITEM_NOT_FOUND', `no item with ${what} in ${organization.slug}`);
        const [item] = await store.listItems(organization.id, {
          limit: 1,
          ...('id' in by ? { ids: [by.id] } : { sku: by.sku }),
        });
        if (!item) throw notFound();
        await confirm(context, opts, {
          command: 'items delete',
          action: `delete the item ${JSON.stringify(item.name)} (${what}) from ${organization.slug}`,
        });
        if (!(await deleteItem(store, cliActor(), organization, by))) throw notFound();
        return organization.slug;
      });
      context.out.success({ deleted: true, ...by }, `Deleted the item with ${what} from ${slug}`);
    },
  );
}
