import { routeQuery } from '../../api/query-validator.js';
import { OrganizationBody, organizationBody } from '../../api/routes/organization.js';
import { lines } from '../render.js';
import { defineTool } from '../tool.js';

/** No arguments: its check only refuses unknown ones (the route's, without the override). */
const query = routeQuery({ optional: [] });

/** GET /api/v1/organization as a tool. */
export const getOrganization = defineTool({
  name: 'get_organization',
  title: 'Get the organization',
  description:
    'Returns the organization this API key belongs to: its id, name, slug, enabled features and creation time. Takes no arguments. Use it to learn whose inventory you are looking at, or to check that the "inventory" feature is enabled before searching items. It does not list items: use search_items for that.',
  arguments: [],
  output: OrganizationBody,
  access: {},
  read: (parameters) => query.validate(parameters),
  run: async ({ organization }) => {
    const body = organizationBody(organization);
    const { data } = body;
    return {
      body,
      text: `Organization ${data.name} (slug ${data.slug})\n${lines({
        _id: data._id,
        features: data.features.join(', ') || 'none',
        createdAt: data.createdAt,
      })}`,
    };
  },
});
