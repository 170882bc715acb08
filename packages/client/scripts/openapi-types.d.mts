/** Where the generated declarations live. */
export declare const GENERATED_PATH: URL;
/** The TypeScript declarations for an OpenAPI 3.x document, as the generate script writes them. */
export declare function renderTypes(document: unknown): Promise<string>;
