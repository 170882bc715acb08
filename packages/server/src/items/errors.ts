/**
 * A problem with the file as a whole (unreadable, malformed, unknown column): the import
 * stops before writing anything. Row problems are not errors but entries in the result.
 */
export class ImportFileError extends Error {
  override name = 'ImportFileError';

  constructor(
    readonly reason: string,
    /** 1-based line of the file the problem is on, when there is one. */
    readonly line?: number,
  ) {
    super(line === undefined ? reason : `line ${line}: ${reason}`);
  }
}
