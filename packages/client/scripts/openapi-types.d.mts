/** Where the public API's generated declarations live. */
export declare const GENERATED_PATH: URL;
/** Where the admin API's generated declarations live. */
export declare const ADMIN_GENERATED_PATH: URL;
/** The TypeScript declarations for the public API's OpenAPI 3.x document, as the generate script writes them. */
export declare function renderTypes(document: unknown): Promise<string>;
/** The TypeScript declarations for the admin API's OpenAPI 3.x document, as the generate script writes them. */
export declare function renderAdminTypes(document: unknown): Promise<string>;
