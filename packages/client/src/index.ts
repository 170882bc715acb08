export {
  type AdminCallOptions,
  type AdminClientOptions,
  type AdminItemRow,
  type AdminKey,
  type AdminKeyState,
  type AdminKeyWithSecret,
  type AdminOrganization,
  type AdminOrganizationDeletion,
  type AdminOrganizationDetail,
  type BulkDeleteResult,
  type BulkUpsertOptions,
  type BulkUpsertResult,
  type BulkUpsertRow,
  type CreateKeyInput,
  type CreateOrganizationInput,
  createAdminClient,
  ItemsRejectedError,
  type RotateKeyInput,
  StockroomAdmin,
  type UpdateOrganizationInput,
  type UpsertMode,
} from './admin.js';
export { ApiPromise, type WithResponse } from './api-promise.js';
export { Stockroom, type StockroomOptions } from './client.js';
export {
  AuthenticationError,
  type ClientErrorCode,
  ConfigurationError,
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
export type { RetryEvent } from './retry.js';
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
  Location,
  LocationList,
  Organization,
  OrganizationParams,
  RequestOptions,
  SelectedItem,
  StockEntry,
  SyncPage,
  SyncParams,
} from './types.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookPayload,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './webhooks.js';
