import type { Command } from 'commander';
import { DEFAULT_FEATURES, FEATURES } from '../keys/permissions.js';
import type { Organization } from '../store/types.js';
import { contextOf, withStore } from './context.js';
import { usageError } from './errors.js';
import { lookupOrganization } from './lookup.js';
import { byCreation, fields, iso, table } from './output.js';
import {
  listParser,
  nameCollector,
  parseSlug,
  slugify,
  slugProblem,
  textParser,
} from './values.js';

export function organizationView(organization: Organization) {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    features: organization.features,
    createdAt: iso(organization.createdAt),
  };
}

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

/** The slug to use: the one given, or one derived from the name (which must yield a valid one). */
function chooseSlug(name: string, slug: string | undefined): string {
  if (slug !== undefined) return slug;
  const derived = slugify(name);
  const problem = slugProblem(derived);
  if (problem) {
    throw usageError(`cannot derive a slug from the name ${JSON.stringify(name)}; pass --slug`);
  }
  return derived;
}

export function registerOrg(program: Command): void {
  const org = program
    .command('org')
    .description('create, list, show and update organizations')
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
        const slug = chooseSlug(opts.name, opts.slug);
        const organization = await withStore(context, (store) =>
          store.createOrganization({
            name: opts.name,
            slug,
            features: opts.features ?? [...DEFAULT_FEATURES],
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
      const shown = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, ref);
        const [members, itemCount, keys] = await Promise.all([
          store.listMembers(organization.id),
          store.countItems(organization.id),
          store.listApiKeys(organization.id),
        ]);
        return { organization, members, itemCount, keys };
      });
      const { organization, members, itemCount } = shown;
      const keyCount = shown.keys.filter((key) => key.revokedAt === null).length;
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
          members: members.map((m) => ({ id: m.id, email: m.email, name: m.name })),
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
        const enable = opts.enableFeature ?? [];
        const disable = opts.disableFeature ?? [];
        if (opts.name === undefined && enable.length === 0 && disable.length === 0) {
          throw usageError('nothing to update; pass --name, --enable-feature or --disable-feature');
        }
        const both = enable.find((feature) => disable.includes(feature));
        if (both)
          throw usageError(`cannot both enable and disable the feature ${JSON.stringify(both)}`);
        const organization = await withStore(context, async (store) => {
          const current = await lookupOrganization(store, ref);
          const wanted = new Set([...current.features, ...enable]);
          for (const feature of disable) wanted.delete(feature);
          // Known features in their canonical order, then anything else already stored.
          const features = [
            ...FEATURES.filter((f) => wanted.has(f)),
            ...[...wanted].filter((f) => !(FEATURES as readonly string[]).includes(f)),
          ];
          return store.updateOrganization(current.id, {
            ...(opts.name !== undefined && { name: opts.name }),
            features,
          });
        });
        context.out.success(
          organizationView(organization),
          `Updated organization ${organization.name}\n${summary(organization)}`,
        );
      },
    );
}
