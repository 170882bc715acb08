import { type TSchema, Type } from 'typebox';
import { PARAMS, type ParamName } from '../api/params.js';
import { InventoryItem, Location, Organization } from '../api/schemas.js';

/** The shared component schemas the API's bodies refer to by `$ref` (api/schemas.ts). */
const COMPONENTS: Record<string, TSchema> = { InventoryItem, Location, Organization };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function inline(node: Json): Json {
  if (Array.isArray(node)) return node.map(inline);
  if (node === null || typeof node !== 'object') return node;
  const ref = node.$ref;
  if (typeof ref === 'string' && COMPONENTS[ref]) {
    const { $id: _id, ...component } = JSON.parse(JSON.stringify(COMPONENTS[ref])) as Record<
      string,
      Json
    >;
    return inline(component);
  }
  const copy: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = inline(value);
  return copy;
}

/**
 * A TypeBox schema of the API (a route's body or parameters) as the plain JSON Schema an MCP
 * tool lists: self-contained, its references to the shared components written out in place.
 */
export function toolSchema(schema: TSchema): { type: 'object'; [key: string]: unknown } {
  const json = inline(JSON.parse(JSON.stringify(schema)) as Json) as Record<string, unknown>;
  if (json.type !== 'object') throw new Error('a tool schema must describe an object');
  return json as { type: 'object'; [key: string]: unknown };
}

/**
 * A tool's arguments as an object schema, in the order named: each the API parameter of that
 * name with its own schema (api/params.ts), unless `own` gives the tool's own schema for it.
 */
export function argumentsSchema(
  names: readonly string[],
  options: { required?: readonly string[]; own?: Record<string, TSchema> } = {},
): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const name of names) {
    const schema = options.own?.[name] ?? PARAMS[name as ParamName].schema;
    properties[name] = options.required?.includes(name) ? schema : Type.Optional(schema);
  }
  return Type.Object(properties, { additionalProperties: false });
}
