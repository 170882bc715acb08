import type { McpTool } from '../tool.js';
import { getItem } from './get-item.js';
import { getOrganization } from './get-organization.js';
import { listLocations } from './list-locations.js';
import { searchItems } from './search-items.js';

/** Every tool of the MCP server, in the order tools/list shows them: one module each. */
export const TOOLS: readonly McpTool[] = [getOrganization, listLocations, searchItems, getItem];
