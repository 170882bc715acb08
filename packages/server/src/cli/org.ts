import type { Command } from 'commander';
import { byCreation } from '../domain/creation-order.js';
import { memberView, organizationView } from '../domain/organization-view.js';
import { DEFAULT_FEATURES, FEATURES } from '../keys/permissions.js';
import { cliActor } from '../operations/audit.js';
import { OperationError } from '../operations/errors.js';
import {
  checkOrganizationUpdate,
  chooseSlug,
  createOrganization,
  deleteOrganization,
  organizationDetail,
  previewOrganizationDeletion,
  updateOrganization,
} from '../operations/organizations.js';
import type { Organization, OrganizationDeletion } from '../store/types.js';
import { iso } from '../time.js';
import { type ConfirmOptions, confirm, confirmable } from './confirm.js';
import { contextOf, withStore } from './context.js';
import { CliError } from './errors.js';
import { lookupOrganization } from './lookup.js';
import { fields, table } from './output.js';
import { listParser, nameCollector, parseSlug, textParser } from './values.js';

function featureList(features: string[]): string {
  return features.length > 0 ? features.join(',') : '(none)';
}

function summaryPairs(organization: Organization): Array<[string, string]> {
  return [
    ['id', organization.id],
    ['name', organization.name],
    ['slug', organization.slug],
    ['features', featureList(organization.features)],
    ['created', iso(organization.createdAt) ?? ''],
  ];
}

function summary(organization: Organization): string {
  return fields(summaryPairs(organization));
}

export function registerOrg(program: Command): void {
  const org = program
    .command('org')
    .description('create, list, show, update and delete organizations')
    .summary('manage organizations');

  org
    .command('create')
    .description('create an organization')
    .requiredOption('--name <NAME>', 'display name (1-200 characters)', textParser(200))
    .option(
      '--slug <SLUG>',
      'lowercase letters, digits and dashes (default: from the name)',
      parseSlug,
    )
    .option(
      '--features <LIST>',
      `comma-separated features (${FEATURES.join(', ')}) or "none" (default: ${DEFAULT_FEATURES.join(',')})`,
      listParser(FEATURES, 'feature'),
    )
    .action(
      async (opts: { name: string; slug?: string; features?: string[] }, command: Command) => {
        const context = contextOf(command);
        // Before the database is opened: a name that yields no slug is a usage error.
        const slug = chooseSlug(opts.name, opts.slug);
        const organization = await withStore(context, (store) =>
          createOrganization(store, cliActor(), {
            name: opts.name,
            slug,
            ...(opts.features !== undefined && { features: opts.features }),
          }),
        );
        context.out.success(
          organizationView(organization),
          `Created organization ${organization.name}\n${summary(organization)}`,
        );
      },
    );

  org
    .command('list')
    .description('list every organization')
    .action(async (_opts: unknown, command: Command) => {
      const context = contextOf(command);
      const organizations = byCreation(
        await withStore(context, (store) => store.listOrganizations()),
      );
      const human =
        organizations.length === 0
          ? 'No organizations yet. Create one: stockroom org create --name NAME'
          : table(
              ['id', 'slug', 'name', 'features', 'created'],
              organizations.map((o) => [
                o.id,
                o.slug,
                o.name,
                featureList(o.features),
                iso(o.createdAt) ?? '',
              ]),
            );
      context.out.success({ organizations: organizations.map(organizationView) }, human);
    });

  org
    .command('show')
    .description('show an organization with its members and counts')
    .argument('<ORG>', 'organization id or slug')
    .action(async (ref: string, _opts: unknown, command: Command) => {
      const context = contextOf(command);
      const { organization, members, itemCount, keyCount } = await withStore(
        context,
        async (store) => {
          const organization = await lookupOrganization(store, ref);
          return { organization, ...(await organizationDetail(store, organization)) };
        },
      );
      const human = fields([
        ...summaryPairs(organization),
        ['items', String(itemCount)],
        ['keys', `${keyCount} (not revoked)`],
        ['members', members.length === 0 ? '(none)' : String(members.length)],
      ]);
      const memberTable = table(
        ['id', 'email', 'name'],
        members.map((m) => [m.id, m.email, m.name ?? '']),
      ).replace(/^/gm, '  ');
      context.out.success(
        {
          ...organizationView(organization),
          itemCount,
          keyCount,
          members: members.map(memberView),
        },
        members.length === 0 ? human : `${human}\n${memberTable}`,
      );
    });

  org
    .command('update')
    .description('rename an organization or turn features on and off')
    .argument('<ORG>', 'organization id or slug')
    .option('--name <NAME>', 'new display name', textParser(200))
    .option(
      '--enable-feature <FEATURE>',
      'turn a feature on (repeatable)',
      nameCollector(FEATURES, 'feature'),
    )
    .option(
      '--disable-feature <FEATURE>',
      'turn a feature off (repeatable)',
      nameCollector(FEATURES, 'feature'),
    )
    .action(
      async (
        ref: string,
        opts: { name?: string; enableFeature?: string[]; disableFeature?: string[] },
        command: Command,
      ) => {
        const context = contextOf(command);
        const update = {
          ...(opts.name !== undefined && { name: opts.name }),
          enable: opts.enableFeature ?? [],
          disable: opts.disableFeature ?? [],
        };
        // Before the database is opened: an update that asks for nothing is a usage error.
        checkOrganizationUpdate(update);
        const organization = await withStore(context, async (store) =>
          updateOrganization(store, cliActor(), await lookupOrganization(store, ref), update),
        );
        context.out.success(
          organizationView(organization),
          `Updated organization ${organization.name}\n${summary(organization)}`,
        );
      },
    );

  confirmable(
    org
      .command('delete')
      .description(
        'delete an organization with its items, API keys and memberships (its users and its audit log stay); asks first on a terminal',
      )
      .argument('<ORG>', 'organization id or slug'),
  )
    .option('--confirm', 'the same as --yes (the flag of earlier versions)')
    .addHelpText(
      'after',
      `
On a terminal the command says what it would delete and asks [y/N]. When stdin is not a
terminal, nothing is deleted without --yes (or --confirm): the command says what would be
deleted and exits 2. On SQLite the items go first, in parts, so that servers' writes get in
between; a delete cut short leaves fewer items, and running it again finishes. Users stay (they
may belong to other organizations), and so does the
organization's audit log (\`stockroom audit --org ID\`). Its keys stop working on every
running server within one second.`,
    )
    .action(async (ref: string, opts: ConfirmOptions & { confirm?: boolean }, command: Command) => {
      const context = contextOf(command);
      const { organization, deleted } = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, ref);
        const yes = opts.yes === true || opts.confirm === true;
        if (!yes) {
          const counts = await previewOrganizationDeletion(store, organization);
          await confirm(context, opts, {
            command: 'org delete',
            action: `delete the organization ${JSON.stringify(organization.name)} (${organization.slug}, ${organization.id}) with ${deletionCounts(counts)}`,
            consequence: 'Its users and audit log stay.',
          });
        }
        try {
          const deleted = await deleteOrganization(store, cliActor(), organization);
          return { organization, deleted };
        } catch (error) {
          if (error instanceof OperationError && error.problem.code === 'ORGANIZATION_GONE') {
            // Deleted by another command since the lookup, which now fails with its message.
            await lookupOrganization(store, ref);
            throw new CliError('ORGANIZATION_NOT_FOUND', `organization ${organization.id} is gone`);
          }
          throw error;
        }
      });
      context.out.success(
        { id: organization.id, slug: organization.slug, name: organization.name, deleted },
        `Deleted organization ${organization.name} (${organization.slug}, ${organization.id}) with ${deletionCounts(deleted)}. Its users and audit log remain.`,
      );
    });
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function deletionCounts(counts: OrganizationDeletion): string {
  return `${plural(counts.items, 'item', 'items')}, ${plural(counts.apiKeys, 'API key', 'API keys')} and ${plural(counts.memberships, 'membership', 'memberships')}`;
}
