import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import { KeyViewOfItems } from '../../api/key-view.js';
import { joined } from '../../api/respond.js';
import { ItemsPage, itemsChecks, itemsPage, itemsQuery } from '../../api/routes/inventory-items.js';
import { itemColumns, table } from '../render.js';
import { defineTool } from '../tool.js';

/** The page size of search_items when `limit` is not given, and the largest it serves. */
export const MCP_DEFAULT_LIMIT = 20;
export const MCP_MAX_LIMIT = 100;

const LIMIT_HINT = `limit must be a whole number from 1 to ${MCP_MAX_LIMIT} (default ${MCP_DEFAULT_LIMIT})`;

/** The item list's filters a tool call may use, in the order the tool lists them. */
const FILTERS = ['search', 'status', 'sku', 'barcode', 'location'] as const;

interface Page {
  data: Record<string, unknown>[];
  organizationId: string;
  count: number;
  nextCursor: string | null;
}

/** GET /api/v1/inventory/items as a tool (its filters, limit, cursor and fields; no sync). */
export const searchItems = defineTool({
  name: 'search_items',
  title: 'Search inventory items',
  description: `Lists the organization's inventory items, oldest first, one page at a time, as a table (_id, name, sku, barcode, status, quantity unless \`fields\` names others). Filter with \`search\` (case-insensitive text in name, description, SKU and barcode), \`status\` (Draft, Active, Inactive or Discontinued), or the exact \`sku\` or \`barcode\` (an exact filter cannot be combined with \`search\`); \`location\` (a code from list_locations) keeps the items with more than 0 in stock there, combinable with the others. Use it to find items, to answer questions over many items (for example which are low in stock: read the quantity column), or to get an item's _id for get_item. \`limit\` is the page size (default ${MCP_DEFAULT_LIMIT}, at most ${MCP_MAX_LIMIT}). When the answer has a nextCursor, more items match: call again with the same filters and \`cursor\` set to it; a short or empty page with a nextCursor is not the end. \`fields\` (comma-separated, e.g. "_id,name,quantity") keeps answers small.`,
  arguments: [...FILTERS, 'limit', 'cursor', 'fields'],
  own: {
    limit: {
      schema: Type.Integer({
        minimum: 1,
        maximum: MCP_MAX_LIMIT,
        default: MCP_DEFAULT_LIMIT,
        description: `Maximum number of items in the page: ${MCP_DEFAULT_LIMIT} unless given, at most ${MCP_MAX_LIMIT}.`,
      }),
      read: (value) => {
        const number = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
        if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
          throw new ApiError(
            'INVALID_PARAMETER',
            `Invalid limit ${JSON.stringify(value)}: ${LIMIT_HINT}.`,
            { param: 'limit' },
          );
        }
        return String(Math.min(number, MCP_MAX_LIMIT));
      },
    },
  },
  output: ItemsPage,
  access: { feature: 'inventory', permission: 'inventory:view' },
  read: (parameters) => itemsQuery.validate({ limit: String(MCP_DEFAULT_LIMIT), ...parameters }),
  checks: itemsChecks,
  run: async ({ services, organization, principal }, query) => {
    const page = await itemsPage(
      services,
      organization.id,
      query,
      KeyViewOfItems.of(principal.key),
    );
    const body = JSON.parse(joined(page.body).toString('utf8')) as Page;
    return { body: body as unknown as Record<string, unknown>, text: pageText(body) };
  },
});

function pageText(page: Page): string {
  const parts: string[] = [];
  if (page.count === 0) parts.push('No items on this page.');
  else {
    parts.push(`${page.count} item${page.count === 1 ? '' : 's'}:`);
    parts.push(table(itemColumns(page.data), page.data));
  }
  parts.push(
    page.nextCursor === null
      ? 'This is the last page: no more items match.'
      : `More items may match: call search_items again with the same filters and cursor "${page.nextCursor}".`,
  );
  return parts.join('\n\n');
}
