import { type Command, InvalidArgumentError } from 'commander';
import { isId } from '../ids.js';
import type { AuditEvent } from '../store/types.js';
import { iso } from '../time.js';
import { contextOf, withStore } from './context.js';
import { CliError } from './errors.js';
import { table } from './output.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

export function auditView(event: AuditEvent) {
  return {
    id: event.id,
    at: iso(event.at),
    actor: event.actor,
    action: event.action,
    target: event.target,
    details: event.details,
  };
}

function parseLimit(raw: string): number {
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > MAX_LIMIT) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_LIMIT}, e.g. 500`);
  }
  return Number(raw);
}

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description(
      "print an organization's audit log: every operator change to it, its keys, members, features and items, oldest first",
    )
    .summary('show the audit log of an organization')
    .requiredOption(
      '--org <ORG>',
      'organization id or slug (the id also works after the organization was deleted)',
    )
    .option(
      '--limit <N>',
      `show the most recent N events (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`,
      parseLimit,
    )
    .action(async (opts: { org: string; limit?: number }, command: Command) => {
      const context = contextOf(command);
      const limit = opts.limit ?? DEFAULT_LIMIT;
      const { organizationId, events } = await withStore(context, async (store) => {
        const organization = await store.findOrganization(opts.org);
        // A deleted organization is known only to its audit log, by id.
        const organizationId = organization?.id ?? (isId(opts.org) ? opts.org : null);
        const events =
          organizationId === null ? [] : await store.listAuditEvents(organizationId, { limit });
        if (!organization && events.length === 0) {
          throw new CliError(
            'ORGANIZATION_NOT_FOUND',
            `no organization with id or slug ${JSON.stringify(opts.org)}, and no audit events for it; see \`stockroom org list\``,
          );
        }
        return { organizationId: organizationId as string, events };
      });
      const views = events.map(auditView);
      const human =
        views.length === 0
          ? 'No audit events yet.'
          : table(
              ['at', 'actor', 'action', 'target', 'details'],
              views.map((view) => [
                view.at ?? '',
                view.actor,
                view.action,
                view.target ?? '-',
                Object.keys(view.details).length === 0 ? '' : JSON.stringify(view.details),
              ]),
            );
      context.out.success({ organizationId, events: views }, human);
    });
}
