export { ApiPromise, type WithResponse } from './api-promise.js';
export { Stockroom, type StockroomOptions } from './client.js';
export {
  AuthenticationError,
  type ClientErrorCode,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  StockroomError,
  SyncExpiredError,
  TimeoutError,
} from './errors.js';
export type { InventoryResource } from './resources/inventory.js';
export type { OrganizationResource } from './resources/organization.js';
export {
  NOT_MODIFIED,
  type NotModified,
  type RateLimitInfo,
  type ResponseInfo,
} from './response.js';
export type { FetchLike } from './transport.js';
export type {
  ApiKeyInfo,
  ConditionalRequestOptions,
  DeletedItem,
  ErrorCode,
  GetItemParams,
  HealthReport,
  InventoryItem,
  ItemField,
  ItemPage,
  ItemStatus,
  KeyVerification,
  ListItemsParams,
  Organization,
  OrganizationParams,
  RequestOptions,
  SelectedItem,
  SyncPage,
  SyncParams,
} from './types.js';
