import { KeyViewOfItems } from '../../api/key-view.js';
import { joined } from '../../api/respond.js';
import { ItemBody, itemBody, itemChecks, itemQuery } from '../../api/routes/inventory-item.js';
import { lines } from '../render.js';
import { defineTool } from '../tool.js';

/** GET /api/v1/inventory/item as a tool. */
export const getItem = defineTool({
  name: 'get_item',
  title: 'Get one inventory item',
  description:
    'Returns one inventory item by its `_id` (the 24-character hex id that search_items shows), with every field: description, barcode, custom fields, timestamps. Use it after search_items when you need the full details of an item you found; to find items by name, SKU, barcode or status, use search_items instead. `fields` narrows the answer to the named fields (comma-separated). An unknown id answers ITEM_NOT_FOUND.',
  arguments: ['itemId', 'fields'],
  required: ['itemId'],
  output: ItemBody,
  access: { feature: 'inventory', permission: 'inventory:view' },
  read: (parameters) => itemQuery.validate(parameters),
  checks: itemChecks,
  run: async ({ services, organization, principal }, query) => {
    const view = KeyViewOfItems.of(principal.key);
    const { body: bytes } = await itemBody(services, organization.id, query, view);
    const body = JSON.parse(joined(bytes).toString('utf8')) as { data: Record<string, unknown> };
    const { name, ...rest } = body.data;
    const heading = name === undefined ? 'Item' : `Item ${String(name)}`;
    return { body, text: `${heading}\n${lines(rest)}` };
  },
});
