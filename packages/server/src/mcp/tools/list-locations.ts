import { routeQuery } from '../../api/query-validator.js';
import { LocationsBody, locationsBody } from '../../api/routes/inventory-locations.js';
import { table } from '../render.js';
import { defineTool } from '../tool.js';

/** No arguments: its check only refuses unknown ones (the route's, without the override). */
const query = routeQuery({ optional: [] });

/** GET /api/v1/inventory/locations as a tool. */
export const listLocations = defineTool({
  name: 'list_locations',
  title: 'List stock locations',
  description:
    'Returns the organization’s stock locations (warehouses, shops…), ordered by code: each with its _id, code and name. Takes no arguments. Use it to learn which location codes exist before asking search_items for the items in stock at one (its `location` argument takes a code), or to name the locations in an item’s `stock` entries.',
  arguments: [],
  output: LocationsBody,
  access: { feature: 'inventory', permission: 'inventory:view' },
  read: (parameters) => query.validate(parameters),
  run: async ({ services, organization }) => {
    const body = await locationsBody(services, organization.id);
    const text =
      body.count === 0
        ? 'This organization has no locations: items keep one quantity each.'
        : `${body.count} location${body.count === 1 ? '' : 's'}\n${table(
            ['code', 'name', '_id'],
            body.data,
          )}`;
    return { body, text };
  },
});
