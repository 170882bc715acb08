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
  TimeoutError,
} from './errors.js';
export type { InventoryResource } from './resources/inventory.js';
export type { OrganizationResource } from './resources/organization.js';
export type { RateLimitInfo, ResponseInfo } from './response.js';
export type { FetchLike } from './transport.js';
export type {
  ApiKeyInfo,
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
} from './types.js';
