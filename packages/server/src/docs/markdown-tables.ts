/**
 * Realigning the pipe tables of rendered Markdown. The renderer pads every cell of a column to
 * the widest one (remark-gfm's `tablePipeAlign`), so a cell that held a placeholder must be
 * padded again once the real value is in: this redoes that padding exactly as markdown-table
 * (the renderer's) does, with the same width measure (UTF-16 length).
 */

type Alignment = 'left' | 'center' | 'right' | 'none';

const DELIMITER_ROW = /^\|(?: *:?-+:? *\|)+$/;
/** What may stand before a table's rows: blockquote markers and indentation. */
const PREFIX = /^[> ]*/;

function cellsOf(row: string): string[] {
  // Pipes inside a cell are always escaped (`\|`); a cell boundary follows the padding space.
  return row
    .slice(1, -1)
    .split(/(?<= )\|/)
    .map((cell) => cell.trim());
}

function alignmentOf(delimiter: string): Alignment {
  const left = delimiter.startsWith(':');
  const right = delimiter.endsWith(':');
  if (left && right) return 'center';
  if (left) return 'left';
  if (right) return 'right';
  return 'none';
}

function delimiterCell(alignment: Alignment, width: number): string {
  const before = alignment === 'left' || alignment === 'center' ? ':' : '';
  const after = alignment === 'right' || alignment === 'center' ? ':' : '';
  return `${before}${'-'.repeat(Math.max(1, width - before.length - after.length))}${after}`;
}

function pad(cell: string, alignment: Alignment, width: number): string {
  const space = width - cell.length;
  if (alignment === 'right') return ' '.repeat(space) + cell;
  if (alignment === 'center') {
    const before = Math.ceil(space / 2);
    return ' '.repeat(before) + cell + ' '.repeat(space - before);
  }
  return cell + ' '.repeat(space);
}

/** One table's rows (delimiter row second, no prefix), padded again. */
function realign(rows: string[]): string[] {
  const matrix = rows.map(cellsOf);
  const alignments = (matrix[1] ?? []).map(alignmentOf);
  const columns = Math.max(...matrix.map((cells) => cells.length));
  const widths: number[] = [];
  for (let column = 0; column < columns; column++) {
    const alignment = alignments[column] ?? 'none';
    const content = Math.max(
      0,
      ...matrix.filter((_, index) => index !== 1).map((cells) => (cells[column] ?? '').length),
    );
    const marks =
      (alignment === 'left' || alignment === 'right' ? 1 : 0) + (alignment === 'center' ? 2 : 0);
    // The delimiter has at least one dash besides its colons.
    widths[column] = Math.max(content, marks + 1);
  }
  return matrix.map((cells, index) => {
    const padded = widths.map((width, column) => {
      const alignment = alignments[column] ?? 'none';
      if (index === 1) return delimiterCell(alignment, width);
      return pad(cells[column] ?? '', alignment, width);
    });
    return `| ${padded.join(' | ')} |`;
  });
}

/**
 * Markdown with `values` replaced (`from` → `to`), every table that held one of them realigned.
 * Tables hold no code blocks' lines here: the renderer writes none that look like one.
 */
export function replaceInMarkdown(markdown: string, values: Array<[string, string]>): string {
  const replace = (text: string) =>
    values.reduce((out, [from, to]) => out.replaceAll(from, to), text);
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let index = 0; index < lines.length; ) {
    const prefix = PREFIX.exec(lines[index] ?? '')?.[0] ?? '';
    const row = (line: string | undefined) =>
      line?.startsWith(`${prefix}|`) === true && line.endsWith('|');
    const delimiter = lines[index + 1];
    if (
      row(lines[index]) &&
      delimiter !== undefined &&
      row(delimiter) &&
      DELIMITER_ROW.test(delimiter.slice(prefix.length))
    ) {
      let end = index + 2;
      while (row(lines[end])) end++;
      const table = lines.slice(index, end);
      const replaced = table.map(replace);
      const changed = replaced.some((line, i) => line !== table[i]);
      out.push(
        ...(changed
          ? realign(replaced.map((line) => line.slice(prefix.length))).map((line) => prefix + line)
          : table),
      );
      index = end;
      continue;
    }
    out.push(replace(lines[index] ?? ''));
    index++;
  }
  return out.join('\n');
}
