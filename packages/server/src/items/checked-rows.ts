import type { ItemFields } from '../store/types.js';
import { readCsv } from './csv-reader.js';
import type { FileFormat } from './format.js';
import { readJsonArray } from './json-reader.js';
import { readNdjson } from './ndjson-reader.js';
import type { OnBytes, RawRecord } from './records.js';
import { checkRecord } from './validate.js';

/** One record of the file, checked: the store fields, or why the row is rejected. */
export type Row = { line: number; fields: ItemFields } | { line: number; reason: string };

export function readRecords(
  file: string,
  format: FileFormat,
  onBytes?: OnBytes,
): AsyncGenerator<RawRecord> {
  if (format === 'csv') return readCsv(file, onBytes);
  if (format === 'ndjson') return readNdjson(file, onBytes);
  return readJsonArray(file, onBytes);
}

/** Checked rows in file order; a sku seen before (even on a rejected row) rejects the row. */
export async function* checkedRows(
  file: string,
  format: FileFormat,
  onBytes?: OnBytes,
): AsyncGenerator<Row> {
  const firstLine = new Map<string, number>();
  for await (const record of readRecords(file, format, onBytes)) {
    const checked = checkRecord(record);
    const sku = 'fields' in checked ? checked.fields.sku : checked.sku;
    if (typeof sku === 'string') {
      const first = firstLine.get(sku);
      if (first !== undefined) {
        yield {
          line: record.line,
          reason: `duplicate sku ${JSON.stringify(sku)} (first used on line ${first}); each sku may appear once per file`,
        };
        continue;
      }
      firstLine.set(sku, record.line);
    }
    yield 'fields' in checked
      ? { line: record.line, fields: checked.fields }
      : { line: record.line, reason: checked.reason };
  }
}
