import type { Services } from '../context.js';
import type { ApiKeyRecord } from '../store/types.js';

/**
 * What a route checks of its parsed query beyond the query itself, all before the quota is
 * charged (docs/architecture.md#keys), so that a refused query spends no use: `byKey` against
 * the key (its view), with query validation, before membership; `byData` against the
 * organization's data (a location code), after the permission, so that only a key that may read
 * the organization learns what it holds. Each throws the ApiError the route answers; the routes
 * run them through their access policy (`authorize`), the MCP tools through `defineTool`.
 */
export interface QueryChecks<Query> {
  byKey?(key: ApiKeyRecord, query: Query): void;
  byData?(services: Services, organizationId: string, query: Query): Promise<void> | undefined;
}
