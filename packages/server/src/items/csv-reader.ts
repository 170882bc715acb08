import { createReadStream } from 'node:fs';
import { CsvError, type Options, parse } from 'csv-parse';
import { quotedName } from '../http/shown-name.js';
import { ImportFileError } from './errors.js';
import { fieldFor, type ImportColumn } from './fields.js';
import { fileClosed } from './file-closed.js';
import { readFailure } from './format.js';
import type { OnBytes, RawRecord } from './records.js';

/**
 * The longest CSV record read, in characters. The longest valid item is far shorter (a 16 KiB
 * customFields cell with every quote doubled, a 5,000-character description and the short
 * fields: under 64 KiB); past this, the file is refused at once instead of being buffered
 * whole (csv-parse takes about a second per MiB of a single field).
 */
export const MAX_CSV_RECORD = 1024 * 1024;

interface CsvRow {
  line: number;
  cells: string[];
}

function countBreaks(text: string): number {
  let breaks = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) breaks++;
    // A CR counts on its own only when it is not the first half of a CRLF.
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) breaks++;
  }
  return breaks;
}

function headerColumns(header: string[], line: number): ImportColumn[] {
  const seen = new Set<string>();
  return header.map((name) => {
    if (seen.has(name)) throw new ImportFileError(`column ${quotedName(name)} appears twice`, line);
    seen.add(name);
    return fieldFor(name, 'column', line);
  });
}

/**
 * Streams a CSV file with a header row. Line numbers are counted here rather than taken from
 * csv-parse's `info.lines`, which over-counts CRLF breaks inside quoted fields: a record starts
 * one line after the previous one ended, plus any blank lines skipped in between, and spans as
 * many lines as its quoted fields contain breaks. The count runs in `on_record`, which the
 * parser calls synchronously in file order, so it is also right for an error that surfaces
 * while parsed records are still buffered.
 */
export async function* readCsv(file: string, onBytes?: OnBytes): AsyncGenerator<RawRecord> {
  const seen = { endLine: 0, emptyLines: 0 };
  const options: Options<CsvRow, string[]> = {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_CSV_RECORD,
    on_record: (cells, context) => {
      const line = seen.endLine + 1 + (context.empty_lines - seen.emptyLines);
      seen.emptyLines = context.empty_lines;
      let breaks = 0;
      for (const cell of cells) {
        if (cell.includes('\n') || cell.includes('\r')) breaks += countBreaks(cell);
      }
      seen.endLine = line + breaks;
      return { line, cells };
    },
  };
  // The typings offer no overload for an on_record that changes the record type.
  const parser = parse(options as unknown as Options);
  const stream = createReadStream(file);
  let bytes = 0;
  stream.on('data', (chunk) => {
    bytes += chunk.length;
    onBytes?.(bytes);
  });
  stream.on('error', (error) => parser.destroy(readFailure(error)));
  stream.pipe(parser);

  let columns: ImportColumn[] | undefined;
  try {
    for await (const { line, cells } of parser as AsyncIterable<{
      line: number;
      cells: string[];
    }>) {
      if (columns === undefined) {
        columns = headerColumns(cells, line);
        continue;
      }
      // A line of spaces, or of empty cells (`,,,,`: spreadsheets export the rows they once
      // formatted), is not a record anyone meant to write.
      if (cells.every((cell) => cell.trim() === '')) continue;
      yield { line, kind: 'csv', columns, cells };
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const skipped =
        ((error as { empty_lines?: number }).empty_lines ?? seen.emptyLines) - seen.emptyLines;
      const reason =
        error.code === 'CSV_MAX_RECORD_SIZE'
          ? `a record is longer than ${MAX_CSV_RECORD} characters (1 MiB); no valid item needs a tenth of that: check the quotes and line breaks`
          : error.message.replace(/ at line \d+/, '');
      throw new ImportFileError(`invalid CSV: ${reason}`, seen.endLine + 1 + skipped);
    }
    throw error;
  } finally {
    stream.destroy();
    await fileClosed(stream);
  }
}
