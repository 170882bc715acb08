import type { Command } from 'commander';
import * as location from '../domain/location.js';
import { cliActor } from '../operations/audit.js';
import { createLocation, removeLocation } from '../operations/locations.js';
import type { Location } from '../store/types.js';
import { iso } from '../time.js';
import { type ConfirmOptions, confirm, confirmable } from './confirm.js';
import { contextOf, withStore } from './context.js';
import { lookupOrganization } from './lookup.js';
import { table } from './output.js';
import { optionParser } from './values.js';

const parseCode = optionParser(location.parseLocationCode);
const parseName = optionParser(location.parseLocationName);

export function locationView(place: Location) {
  return {
    id: place.id,
    organizationId: place.organizationId,
    code: place.code,
    name: place.name,
    createdAt: iso(place.createdAt),
  };
}

export function registerLocation(program: Command): void {
  const command = program
    .command('location')
    .description("an organization's locations: where its items' stock is kept")
    .summary('manage locations (stock per location)');

  command
    .command('create')
    .description(
      'create a location; items then take stock there through imports (stock.CODE columns, or "stock": {"CODE": qty})',
    )
    .requiredOption('--org <ORG>', 'organization id or slug')
    .requiredOption(
      '--code <CODE>',
      'unique code, 1-32 characters of A-Z, a-z, 0-9, ".", "_", "-" (case-sensitive)',
      parseCode,
    )
    .requiredOption('--name <NAME>', 'what people call the place (1-200 characters)', parseName)
    .action(async (opts: { org: string; code: string; name: string }, cmd: Command) => {
      const context = contextOf(cmd);
      const created = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, opts.org);
        return createLocation(store, cliActor(), organization, {
          code: opts.code,
          name: opts.name,
        });
      });
      context.out.success(
        locationView(created),
        `Created location ${created.code} (${created.name}) in organization ${created.organizationId}`,
      );
    });

  command
    .command('list')
    .description("list an organization's locations, by code")
    .requiredOption('--org <ORG>', 'organization id or slug')
    .action(async (opts: { org: string }, cmd: Command) => {
      const context = contextOf(cmd);
      const locations = await withStore(context, async (store) => {
        const organization = await lookupOrganization(store, opts.org);
        return store.listLocations(organization.id);
      });
      context.out.success(
        { locations: locations.map(locationView) },
        locations.length === 0
          ? 'No locations yet. Create one with `stockroom location create --org ORG --code CODE --name NAME`.'
          : table(
              ['code', 'name', 'id', 'created'],
              locations.map((l) => [l.code, l.name, l.id, iso(l.createdAt) ?? '']),
            ),
      );
    });

  confirmable(
    command
      .command('remove')
      .description(
        'remove a location with its stock rows: each item that had one changes (its quantity becomes the sum of the rows left, or 0); asks first on a terminal',
      )
      .requiredOption('--org <ORG>', 'organization id or slug')
      .requiredOption('--code <CODE>', 'the code of the location to remove', parseCode),
  ).action(async (opts: { org: string; code: string } & ConfirmOptions, cmd: Command) => {
    const context = contextOf(cmd);
    const removed = await withStore(context, async (store) => {
      const organization = await lookupOrganization(store, opts.org);
      const place = await store.findLocation(organization.id, opts.code);
      // An unknown code is refused by the removal itself, before anything is asked.
      if (place) {
        await confirm(context, opts, {
          command: 'location remove',
          action: `remove location ${place.code} ("${place.name}") of organization ${organization.slug}`,
          consequence:
            'Its stock rows go with it: each item that had one changes (its quantity becomes the sum of the rows left, or 0).',
        });
      }
      return removeLocation(store, cliActor(), organization, opts.code);
    });
    context.out.success(
      { removed: locationView(removed.location), itemsChanged: removed.items },
      `Removed location ${removed.location.code}; ${removed.items} item${removed.items === 1 ? '' : 's'} changed.`,
    );
  });
}
