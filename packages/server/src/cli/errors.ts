import { CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { ImportFileError } from '../items/errors.js';
import { ServeLockError } from '../serve-lock.js';
import { StoreConflictError, StoreUnavailableError } from '../store/types.js';

/**
 * The codes `--json` reports in `{ "error": { "code", "message" } }`. Usage errors exit 2,
 * everything else 1 (DECISIONS.md, "Operator CLI").
 */
export type CliErrorCode =
  | 'USAGE_ERROR'
  | 'ORGANIZATION_NOT_FOUND'
  | 'USER_NOT_FOUND'
  | 'NOT_A_MEMBER'
  | 'KEY_NOT_FOUND'
  | 'KEY_REVOKED'
  | 'ITEM_NOT_FOUND'
  | 'CONFLICT'
  | 'INVALID_FILE'
  | 'IMPORT_ROWS_FAILED'
  | 'INVALID_CONFIG'
  | 'DATABASE_ERROR'
  | 'ALREADY_SERVING'
  | 'FILE_EXISTS'
  | 'NOT_SUPPORTED'
  | 'INTERNAL_ERROR';

export class CliError extends Error {
  override name = 'CliError';

  constructor(
    readonly code: CliErrorCode,
    message: string,
    /**
     * A failure that still has a report (an import with rejected rows): `details` joins the
     * `--json` object, `report` is printed on stdout without --json.
     */
    readonly extra: { details?: Record<string, unknown>; report?: string } = {},
  ) {
    super(message);
  }

  get exitCode(): 1 | 2 {
    return this.code === 'USAGE_ERROR' ? 2 : 1;
  }
}

export function usageError(message: string): CliError {
  return new CliError('USAGE_ERROR', message);
}

/** commander prefixes its messages for its own printing; ours go after `stockroom: `. */
function commanderMessage(error: CommanderError): string {
  return error.message.replace(/^error: /, '');
}

/** Every failure, whatever threw it, as the one error the CLI reports. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof CommanderError) return usageError(commanderMessage(error));
  if (error instanceof ImportFileError) return new CliError('INVALID_FILE', error.message);
  if (error instanceof StoreConflictError) return new CliError('CONFLICT', error.message);
  if (error instanceof StoreUnavailableError) return new CliError('DATABASE_ERROR', error.message);
  if (error instanceof ConfigError) return new CliError('INVALID_CONFIG', error.message);
  if (error instanceof ServeLockError) return new CliError('ALREADY_SERVING', error.message);
  const message = error instanceof Error ? error.message : String(error);
  // better-sqlite3 errors carry SQLITE_* codes: a database problem, not a bug of ours.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    return new CliError('DATABASE_ERROR', `database error: ${message}`);
  }
  return new CliError('INTERNAL_ERROR', message);
}
