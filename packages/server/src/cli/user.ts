import type { Command } from 'commander';
import { cliActor } from '../operations/audit.js';
import { OperationError } from '../operations/errors.js';
import { addMember, removeMember } from '../operations/members.js';
import { type ConfirmOptions, confirm, confirmable } from './confirm.js';
import { contextOf, withStore } from './context.js';
import { lookupOrganization, lookupUser } from './lookup.js';
import { parseEmail, textParser } from './values.js';

export function registerUser(program: Command): void {
  const user = program
    .command('user')
    .description('add users to organizations and remove them')
    .summary('manage users and memberships');

  user
    .command('create')
    .description(
      'create a user in an organization; an email that already exists adds that user to the organization',
    )
    .requiredOption('--org <ORG>', 'organization id or slug')
    .requiredOption('--email <EMAIL>', 'email address (unique, case-insensitive)', parseEmail)
    .option('--name <NAME>', 'display name (used only when the user is new)', textParser(200))
    .action(async (opts: { org: string; email: string; name?: string }, command: Command) => {
      const context = contextOf(command);
      const { organization, member, created } = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, opts.org);
        const added = await addMember(store, cliActor(), organization, {
          email: opts.email,
          name: opts.name ?? null,
        });
        return { organization, ...added };
      });
      context.out.success(
        {
          id: member.id,
          email: member.email,
          name: member.name,
          organizationId: organization.id,
          created,
        },
        created
          ? `Created user ${member.email} (id ${member.id}) in ${organization.slug}`
          : `Added existing user ${member.email} (id ${member.id}) to ${organization.slug}`,
      );
    });

  confirmable(
    user
      .command('remove')
      .description(
        "remove a user from an organization; that user's keys then get 403 from the API (asks first on a terminal)",
      )
      .requiredOption('--org <ORG>', 'organization id or slug')
      .requiredOption('--user <USER>', 'user id or email'),
  ).action(async (opts: { org: string; user: string } & ConfirmOptions, command: Command) => {
    const context = contextOf(command);
    const { organization, member } = await withStore(context, async (store) => {
      const organization = await lookupOrganization(store, opts.org);
      const member = await lookupUser(store, opts.user);
      // Not asked about a removal that cannot happen: the operation's own refusal.
      if (!(await store.isMember(organization.id, member.id))) {
        throw new OperationError({ code: 'MEMBERSHIP_NOT_FOUND', user: member, organization });
      }
      await confirm(context, opts, {
        command: 'user remove',
        action: `remove ${member.email} from ${organization.slug}`,
        consequence: 'Their keys for it are refused from then on.',
      });
      await removeMember(store, cliActor(), organization, member);
      return { organization, member };
    });
    context.out.success(
      { id: member.id, email: member.email, organizationId: organization.id, removed: true },
      `Removed ${member.email} from ${organization.slug}; their keys for it are refused from now on`,
    );
  });
}
