import { type Command, Option } from 'commander';
import { describeKey, rateLimitText } from '../domain/key-state.js';
import { formatRateLimit } from '../domain/rate-limit-spec.js';
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
} from '../operations/keys.js';
import type { ApiKeyRecord, RateLimitPolicy, Store } from '../store/types.js';
import { iso } from '../time.js';
import { type Confirmation, type ConfirmOptions, confirm, confirmable } from './confirm.js';
import { contextOf, withStore } from './context.js';
import { lookupKey, lookupOrganization } from './lookup.js';
import { fields, table } from './output.js';
import {
  listParser,
  parseExpiresIn,
  parseFutureDate,
  parseGrace,
  parseKeyRef,
  parseQuota,
  parseRateLimit,
  textParser,
} from './values.js';

interface CreateOptions {
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
  ]);
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
    .description('create, list, disable, enable and revoke API keys')
    .summary('manage API keys');

  key
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
    )
    .action(async (opts: CreateOptions, command: Command) => {
      const context = contextOf(command);
      const expiresAt = expiryFrom(opts);
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
      'every column (user, quota, rate limit, full times), however wide the lines get',
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
                ]),
              )
            : table(
                ['id', 'prefix', 'name', 'type', 'state', 'expires', 'last used'],
                views.map((view) => [
                  view.id,
                  view.prefix,
                  view.name,
                  view.type === 'organization' ? 'org' : 'user',
                  view.state,
                  day(view.expiresAt),
                  day(view.lastUsedAt),
                ]),
                { width: KEY_LIST_WIDTH, shrink: 2 },
              );
      context.out.success({ keys: views }, human);
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
