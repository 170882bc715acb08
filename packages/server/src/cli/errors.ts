import { CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { DomainError } from '../domain/errors.js';
import { viewText } from '../domain/view.js';
import { ImportFileError, ImportInterruptedError } from '../items/errors.js';
import { OperationError, type Problem } from '../operations/errors.js';
import { ServeLockError } from '../serve-lock.js';
import { NonFiniteQuantitiesError } from '../store/quantity-check.js';
import { StoreConflictError, StoreUnavailableError } from '../store/types.js';

/**
 * The codes `--json` reports in `{ "error": { "code", "message" } }`. Usage errors exit 2,
 * everything else 1, so a script can tell a wrong call from a failed one.
 */
export type CliErrorCode =
  | 'USAGE_ERROR'
  | 'ORGANIZATION_NOT_FOUND'
  | 'USER_NOT_FOUND'
  | 'NOT_A_MEMBER'
  | 'KEY_NOT_FOUND'
  /** A key prefix that several keys share: the message lists their ids. */
  | 'KEY_AMBIGUOUS'
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
  | 'WEBHOOK_NOT_FOUND'
  | 'LOCATION_NOT_FOUND'
  | 'DESTINATION_REFUSED'
  /** A destructive command the person at the terminal did not confirm. */
  | 'CANCELLED'
  /** A command stopped by SIGINT or SIGTERM after finishing what it had in flight. */
  | 'INTERRUPTED'
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
  // A value checked outside commander's argParsers: still the caller's mistake.
  if (error instanceof DomainError) return usageError(error.message);
  if (error instanceof ImportFileError) return new CliError('INVALID_FILE', error.message);
  if (error instanceof ImportInterruptedError) return new CliError('INTERRUPTED', error.message);
  if (error instanceof OperationError) return cliErrorFor(error.problem);
  if (error instanceof StoreConflictError) return new CliError('CONFLICT', error.message);
  if (error instanceof StoreUnavailableError) return new CliError('DATABASE_ERROR', error.message);
  // What the database holds refuses the start (`serve`): the message says how to repair it.
  if (error instanceof NonFiniteQuantitiesError) {
    return new CliError('DATABASE_ERROR', error.message);
  }
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

/**
 * A refused operation (operations/*.ts) in the CLI's words: the codes and messages the CLI
 * has always printed, naming flags and the commands that fix the problem.
 */
export function cliErrorFor(problem: Problem): CliError {
  switch (problem.code) {
    case 'SLUG_UNDERIVABLE':
      return usageError(
        `cannot derive a slug from the name ${JSON.stringify(problem.name)}; pass --slug`,
      );
    case 'INVALID_SLUG':
      return usageError(`option '--slug <SLUG>' argument is invalid. ${problem.message}`);
    case 'NOTHING_TO_UPDATE': {
      const { key } = problem;
      if (!key) {
        return usageError('nothing to update; pass --name, --enable-feature or --disable-feature');
      }
      return usageError(
        key.view === null
          ? `key ${key.id} has no view already (it sees every item, every field); nothing was changed`
          : `key ${key.id} already has this view (${viewText(key.view)}); nothing was changed`,
      );
    }
    case 'FEATURE_CONFLICT':
      return usageError(
        `cannot both enable and disable the feature ${JSON.stringify(problem.feature)}`,
      );
    case 'ORGANIZATION_GONE':
      return new CliError(
        'ORGANIZATION_NOT_FOUND',
        `organization ${problem.organization.id} is gone`,
      );
    case 'USER_NOT_FOUND':
      return new CliError(
        'USER_NOT_FOUND',
        `no user with id or email ${JSON.stringify(problem.ref)}`,
      );
    case 'NOT_A_MEMBER': {
      const { user, organization } = problem;
      return new CliError(
        'NOT_A_MEMBER',
        `${user.email} is not a member of ${organization.slug}; add them with \`stockroom user create --org ${organization.slug} --email ${user.email}\``,
      );
    }
    case 'ALREADY_A_MEMBER':
      return new CliError(
        'CONFLICT',
        `${problem.user.email} is already a member of ${problem.organization.slug}`,
      );
    case 'MEMBERSHIP_NOT_FOUND':
      return new CliError(
        'NOT_A_MEMBER',
        `${problem.user.email} is not a member of ${problem.organization.slug}`,
      );
    case 'KEY_REVOKED':
      return new CliError(
        'KEY_REVOKED',
        `key ${problem.key.id} is revoked and cannot be ${problem.action}; revocation is permanent, create a new key`,
      );
    case 'LOCATION_EXISTS':
      return new CliError(
        'CONFLICT',
        `${problem.organization.slug} already has a location with code ${problem.location}; codes are unique in an organization (list them with \`stockroom location list --org ${problem.organization.slug}\`)`,
      );
    case 'LOCATION_NOT_FOUND':
      return new CliError(
        'LOCATION_NOT_FOUND',
        `${problem.organization.slug} has no location with code ${problem.location} (codes are case-sensitive); list them with \`stockroom location list --org ${problem.organization.slug}\``,
      );
    case 'KEY_REVOKED_DURING_ROTATION':
      return new CliError(
        'KEY_REVOKED',
        `key ${problem.id} was revoked while it was being rotated`,
      );
  }
}
