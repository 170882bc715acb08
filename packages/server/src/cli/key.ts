import { type Command, Option } from 'commander';
import { DomainError } from '../domain/errors.js';
import { describeKey, rateLimitText } from '../domain/key-state.js';
import { formatRateLimit } from '../domain/rate-limit-spec.js';
import { makeView, viewText } from '../domain/view.js';
import { PERMISSIONS } from '../keys/permissions.js';
import { cliActor } from '../operations/audit.js';
import {
  createKey,
  expiryFrom,
  keyUserEmail,
  listKeys,
  revokeKey,
  rotateKey,
  setKeyEnabled,
  updateKeyView,
} from '../operations/keys.js';
import type { ApiKeyRecord, KeyView, RateLimitPolicy, Store } from '../store/types.js';
import { iso } from '../time.js';
import { type Confirmation, type ConfirmOptions, confirm, confirmable } from './confirm.js';
import { contextOf, withStore } from './context.js';
import { usageError } from './errors.js';
import { lookupKey, lookupOrganization } from './lookup.js';
import { fields, table } from './output.js';
import {
  collectHideFields,
  collectWhere,
  listParser,
  parseExpiresIn,
  parseFutureDate,
  parseGrace,
  parseKeyRef,
  parseQuantityCap,
  parseQuota,
  parseRateLimit,
  textParser,
  type ViewPart,
} from './values.js';

/** The view flags `key create` and `key update` share, as commander collects them. */
interface ViewOptions {
  where?: ViewPart;
  hideFields?: ViewPart;
  quantityCap?: number | 'none';
}

interface CreateOptions extends ViewOptions {
  org: string;
  user?: string;
  name?: string;
  permissions?: string[];
  expiresIn?: number;
  expiresAt?: number;
  remaining?: number;
  rateLimit?: RateLimitPolicy | 'none';
}

function describe(key: ApiKeyRecord): string {
  return `${key.id} (${key.prefix}, ${JSON.stringify(key.name)})`;
}

function details(key: ApiKeyRecord, userEmail: string | null): string {
  const view = describeKey(key, userEmail);
  return fields([
    ['id', view.id],
    ['prefix', view.prefix],
    ['name', view.name],
    ['type', view.type],
    ['organization', view.organizationId],
    ['user', userEmail ?? '-'],
    ['permissions', view.permissions.length > 0 ? view.permissions.join(',') : '(none)'],
    ['state', view.state],
    ['expires', view.expiresAt ?? 'never'],
    ['remaining', view.remaining === null ? 'unlimited' : String(view.remaining)],
    ['rate limit', rateLimitText(key)],
    ['view', viewText(key.view)],
  ]);
}

const VIEW_FLAGS = {
  where: '--where <EXPR>',
  hideFields: '--hide-fields <LIST>',
} as const;

/** Adds --where, --hide-fields and --quantity-cap, worded for `key create` or `key update`. */
function viewOptions(command: Command, update: boolean): Command {
  return command
    .option(
      VIEW_FLAGS.where,
      `only items matching EXPR: status=A[,B…], location=CODE or customFields.NAME=VALUE (repeatable, all must hold${update ? '; replaces the current filters; "none" drops them' : ''})`,
      collectWhere,
    )
    .option(
      VIEW_FLAGS.hideFields,
      `comma-separated item fields to hide (barcode, description, stock, customFields, customFields.NAME…; repeatable${update ? '; replaces the hidden fields; "none" shows every field' : ''})`,
      collectHideFields,
    )
    .option(
      '--quantity-cap <N>',
      `show every quantity as at most N${update ? ' ("none" removes the cap)' : ''}`,
      parseQuantityCap,
    );
}

/**
 * The parts of a view the flags give (a part not given is absent): `none` stands for the empty
 * part and cannot be combined with values. Checked before the database is opened.
 */
function viewParts(opts: ViewOptions): Partial<KeyView> {
  const parts: Partial<KeyView> = {};
  for (const name of ['where', 'hideFields'] as const) {
    const given = opts[name];
    if (given === undefined) continue;
    if (given.none && given.values.length > 0) {
      throw usageError(
        `option '${VIEW_FLAGS[name]}' cannot be "none" and something else at once; "none" alone ${name === 'where' ? 'drops every filter' : 'hides nothing'}`,
      );
    }
    parts[name] = given.values;
  }
  if (opts.quantityCap !== undefined) {
    parts.quantityCap = opts.quantityCap === 'none' ? null : opts.quantityCap;
  }
  // The bounds of the whole view (how many filters, how many hidden fields), per flag.
  try {
    makeView({ where: parts.where ?? [], hideFields: parts.hideFields ?? [], quantityCap: null });
  } catch (error) {
    if (error instanceof DomainError && (error.field === 'where' || error.field === 'hideFields')) {
      throw usageError(`option '${VIEW_FLAGS[error.field]}': ${error.message}`);
    }
    throw error;
  }
  return parts;
}

/** The view a key gets: each part given replaces the current one, the others are kept. */
function mergedView(current: KeyView | null, parts: Partial<KeyView>): KeyView | null {
  return makeView({
    where: parts.where ?? current?.where ?? [],
    hideFields: parts.hideFields ?? current?.hideFields ?? [],
    quantityCap:
      parts.quantityCap !== undefined ? parts.quantityCap : (current?.quantityCap ?? null),
  });
}

const KEY_ARGUMENT =
  'key id, or its prefix such as sr_org_AbC1 (as `key list`, logs and auth/verify show it)';

/** enable/disable/revoke share the shape: find the key, change it (and audit), show it. */
function stateCommand(
  parent: Command,
  name: string,
  description: string,
  change: (store: Store, key: ApiKeyRecord) => Promise<ApiKeyRecord>,
  done: string,
  /** For a destructive change: what to ask before it (confirm.ts). */
  confirmation?: (key: ApiKeyRecord) => Omit<Confirmation, 'command'>,
): void {
  const command = parent
    .command(name)
    .description(description)
    .argument('<KEY>', KEY_ARGUMENT, parseKeyRef);
  if (confirmation) confirmable(command);
  command.action(async (ref: string, opts: ConfirmOptions, command: Command) => {
    const context = contextOf(command);
    const key = await withStore(context, async (store) => {
      const current = await lookupKey(store, ref);
      if (confirmation) {
        await confirm(context, opts, { command: `key ${name}`, ...confirmation(current) });
      }
      return change(store, current);
    });
    context.out.success(describeKey(key), `${done} key ${describe(key)}`);
  });
}

/** The width `key list` keeps every line within, without --wide. */
export const KEY_LIST_WIDTH = 100;

/** An ISO instant as its date only (`2027-01-31`), or `never`. */
function day(instant: string | null): string {
  return instant === null ? 'never' : instant.slice(0, 10);
}

export function registerKey(program: Command): void {
  const key = program
    .command('key')
    .description('create, list, update, disable, enable, revoke and rotate API keys')
    .summary('manage API keys');

  const create = key
    .command('create')
    .description('create an organization key, or a user key with --user; the key is shown once')
    .requiredOption('--org <ORG>', 'organization id or slug')
    .option('--user <USER>', 'make a user key for this member (user id or email)')
    .option('--name <NAME>', 'a label for the key (1-100 characters)', textParser(100))
    .option(
      '--permissions <LIST>',
      `comma-separated permissions (${PERMISSIONS.join(', ')}) or "none" (default: inventory:view)`,
      listParser(PERMISSIONS, 'permission'),
    )
    .addOption(
      new Option(
        '--expires-in <DURATION>',
        'expire after this long, e.g. 30d, 12h (at most 36500d)',
      )
        .argParser(parseExpiresIn)
        .conflicts('expiresAt'),
    )
    .addOption(
      new Option(
        '--expires-at <ISO>',
        'expire at this instant, e.g. 2027-01-31T00:00:00Z (at most 100 years ahead)',
      ).argParser(parseFutureDate),
    )
    .option(
      '--remaining <N>',
      'number of uses before the key is exhausted, 0 to 1000000000 (default: unlimited)',
      parseQuota,
    )
    .option(
      '--rate-limit <MAX/DURATION>',
      'requests per window, e.g. 600/1m, or "none" (default: 600/1m; MAX at most 1000000000, window at most 365d)',
      parseRateLimit,
    );
  viewOptions(create, false).action(async (opts: CreateOptions, command: Command) => {
    const context = contextOf(command);
    const expiresAt = expiryFrom(opts);
    const view = mergedView(null, viewParts(opts));
    const { issued, email, slug } = await withStore(context, async (store) => {
      const organization = await lookupOrganization(store, opts.org);
      const { issued, user } = await createKey(store, cliActor(), organization, {
        ...(opts.user !== undefined && { user: opts.user }),
        ...(opts.name !== undefined && { name: opts.name }),
        ...(opts.permissions !== undefined && { permissions: opts.permissions }),
        expiresAt,
        remaining: opts.remaining ?? null,
        ...(opts.rateLimit !== undefined && {
          rateLimit: opts.rateLimit === 'none' ? null : opts.rateLimit,
        }),
        view,
      });
      return { issued, email: user?.email ?? null, slug: organization.slug };
    });
    const { id, ...rest } = describeKey(issued.record, email);
    context.out.success(
      { id, key: issued.key, ...rest },
      [
        `Created ${issued.record.type} key for ${slug}`,
        details(issued.record, email),
        '',
        `  ${issued.key}`,
        '',
        'This key is shown only once: copy it now. Stockroom stores only its hash and cannot show it again.',
      ].join('\n'),
    );
  });

  key
    .command('list')
    .description(
      "list an organization's keys (never the secret or its hash); --wide or --json for every detail",
    )
    .requiredOption('--org <ORG>', 'organization id or slug')
    .option(
      '--wide',
      'every column (user, quota, rate limit, full times, the whole view), however wide the lines get',
    )
    .action(async (opts: { org: string; wide?: boolean }, command: Command) => {
      const context = contextOf(command);
      const keys = await withStore(context, async (store) =>
        listKeys(store, await lookupOrganization(store, opts.org)),
      );
      const views = keys.map(({ key, userEmail }) => describeKey(key, userEmail));
      const human =
        views.length === 0
          ? `No keys yet. Create one: stockroom key create --org ${opts.org}`
          : opts.wide
            ? table(
                [
                  'id',
                  'prefix',
                  'name',
                  'type',
                  'user',
                  'state',
                  'remaining',
                  'rate limit',
                  'expires',
                  'last used',
                  'view',
                ],
                views.map((view) => [
                  view.id,
                  view.prefix,
                  view.name,
                  view.type,
                  view.userEmail ?? '-',
                  view.state,
                  view.remaining === null ? '-' : String(view.remaining),
                  formatRateLimit(view.rateLimit),
                  view.expiresAt ?? 'never',
                  view.lastUsedAt ?? 'never',
                  viewText(view.view),
                ]),
              )
            : table(
                ['id', 'prefix', 'name', 'type', 'state', 'view', 'expires', 'last used'],
                views.map((view) => [
                  view.id,
                  view.prefix,
                  view.name,
                  view.type === 'organization' ? 'org' : 'user',
                  view.state,
                  // The whole view is too long for a column: --wide and --json show it.
                  view.view === null ? 'all' : 'limited',
                  day(view.expiresAt),
                  day(view.lastUsedAt),
                ]),
                { width: KEY_LIST_WIDTH, shrink: 2 },
              );
      context.out.success({ keys: views }, human);
    });

  viewOptions(
    key
      .command('update')
      .description(
        'change what a key may see: each of --where, --hide-fields and --quantity-cap given replaces that part of its view, the others are kept; --clear-view removes the whole view',
      )
      .argument('<KEY>', KEY_ARGUMENT, parseKeyRef),
    true,
  )
    .addOption(
      new Option(
        '--clear-view',
        'remove the whole view: the key sees every item, every field',
      ).conflicts(['where', 'hideFields', 'quantityCap']),
    )
    .addHelpText(
      'after',
      `
The key's next requests see the new view, on every running server within one second.
Example: stockroom key update sr_org_AbC1 --where status=Active --hide-fields barcode,stock`,
    )
    .action(async (ref: string, opts: ViewOptions & { clearView?: boolean }, command: Command) => {
      const context = contextOf(command);
      // Before the database is opened: an update that asks for nothing is a usage error.
      const parts = viewParts(opts);
      if (!opts.clearView && Object.keys(parts).length === 0) {
        throw usageError(
          'nothing to update; pass --where, --hide-fields, --quantity-cap or --clear-view',
        );
      }
      const { changed, email } = await withStore(context, async (store) => {
        const current = await lookupKey(store, ref);
        const view = opts.clearView ? null : mergedView(current.view, parts);
        const organization = await lookupOrganization(store, current.organizationId);
        const changed = await updateKeyView(store, cliActor(), organization, current, view);
        return { changed, email: await keyUserEmail(store, changed) };
      });
      context.out.success(
        describeKey(changed, email),
        `Updated the view of key ${describe(changed)}\n${details(changed, email)}`,
      );
    });

  stateCommand(
    key,
    'disable',
    'stop a key from working until it is enabled again',
    (store, current) => setKeyEnabled(store, cliActor(), current, false),
    'Disabled',
  );
  stateCommand(
    key,
    'enable',
    'let a disabled key work again',
    (store, current) => setKeyEnabled(store, cliActor(), current, true),
    'Enabled',
  );
  stateCommand(
    key,
    'revoke',
    'revoke a key for good (the API then treats it as unknown); asks first on a terminal',
    (store, current) => revokeKey(store, cliActor(), current),
    'Revoked',
    (current) => ({
      action: `revoke key ${describe(current)}`,
      consequence: 'Revocation is permanent: every request with it is refused from now on.',
    }),
  );

  key
    .command('rotate')
    .description(
      'give a key a new secret, shown once; the key keeps its id, quota, rate limit and permissions, and the old secret keeps working for the --grace period',
    )
    .argument('<KEY>', KEY_ARGUMENT, parseKeyRef)
    .option(
      '--grace <DURATION>',
      'how long the old secret keeps working, e.g. 24h (at most 90d; default: it stops at once)',
      parseGrace,
    )
    .action(async (ref: string, opts: { grace?: number }, command: Command) => {
      const context = contextOf(command);
      const graceSeconds = opts.grace ?? 0;
      const { rotated, email } = await withStore(context, async (store) => {
        const current = await lookupKey(store, ref);
        const rotated = await rotateKey(store, cliActor(), current, graceSeconds);
        return { rotated, email: await keyUserEmail(store, rotated.record) };
      });
      const { id: keyId, ...rest } = describeKey(rotated.record, email);
      const until = iso(rotated.record.previousHashExpiresAt);
      context.out.success(
        { id: keyId, key: rotated.key, ...rest },
        [
          `Rotated key ${describe(rotated.record)}`,
          details(rotated.record, email),
          '',
          `  ${rotated.key}`,
          '',
          'This key is shown only once: copy it now. Stockroom stores only its hash and cannot show it again.',
          until === null
            ? 'The old secret stopped working now.'
            : `The old secret keeps working until ${until}; rotating again ends that grace period.`,
        ].join('\n'),
      );
    });
}
