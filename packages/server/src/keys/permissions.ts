/** The permissions a key can carry. Only one exists today. */
export const PERMISSIONS = ['inventory:view'] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const DEFAULT_PERMISSIONS: Permission[] = ['inventory:view'];

/** Features an organization can have enabled. */
export const FEATURES = ['inventory'] as const;
export const DEFAULT_FEATURES = ['inventory'];

export const DEFAULT_RATE_LIMIT = { max: 600, windowSeconds: 60 };
