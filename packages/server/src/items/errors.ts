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

/** What an import had committed when it stopped: the counts of the rows already kept. */
export interface CommittedCounts {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

/**
 * An import that stopped once writing had begun (a database error, a crash of the reader
 * thread): `committed` says what it had kept by then (batches already committed stay), `where`
 * the place in the file, and `cause` what stopped it. The message is one line.
 */
export class ImportStoppedError extends Error {
  override name = 'ImportStoppedError';

  constructor(
    readonly committed: CommittedCounts,
    /** Where in the file: `at line 10` (the first row not kept), or `after line 12`. */
    readonly where: string | undefined,
    override readonly cause: unknown,
  ) {
    const at = where === undefined ? '' : ` ${where}`;
    const { created, updated, unchanged, failed } = committed;
    super(
      `the import stopped${at}: ${firstLine(cause)}; committed before it: ${created} created, ${updated} updated, ${unchanged} unchanged, ${failed} failed`,
    );
  }

  /** Set when the audit event of the committed rows could not be recorded either. */
  auditFailure?: unknown;

  /** The cause's own message, one line. */
  get reason(): string {
    return firstLine(this.cause);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/**
 * What stops an import asked to stop (`stockroom items import` on SIGINT or SIGTERM): the
 * batch in flight is finished and the import ends as an ImportStoppedError with this cause.
 */
export class ImportInterruptedError extends Error {
  override name = 'ImportInterruptedError';

  constructor(readonly signal: string) {
    super(`interrupted by ${signal}`);
  }
}
