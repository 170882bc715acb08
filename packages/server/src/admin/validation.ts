import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { DomainError } from '../domain/errors.js';
import { quotedName, shownName } from '../http/shown-name.js';
import { type AdminError, invalid } from './errors.js';

/**
 * Request checks of the admin API. Bodies are checked against their TypeBox schema, and the
 * first problem is reported as 400 INVALID_REQUEST naming the field (`param`) and saying what
 * it must be. Values with rules of their own (slugs, durations, rate limits) are then checked
 * by the routes with the rules the CLI shares (../domain/), through `field`.
 */

interface ObjectSchema {
  type?: string;
  properties?: Record<string, TSchema & { anyOf?: Array<{ const?: unknown }> }>;
  required?: string[];
  additionalProperties?: unknown;
}

/** `/permissions/0` → `permissions[0]`; the root is `body`. */
function fieldName(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').slice(1);
  if (extra !== undefined) parts.push(extra);
  if (parts.length === 0) return 'body';
  return parts
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part),
      '',
    );
}

function article(type: string): string {
  switch (type) {
    case 'integer':
      return 'an integer';
    case 'array':
      return 'an array';
    case 'object':
      return 'a JSON object';
    case 'null':
      return 'null';
    default:
      return `a ${type}`;
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** The value at a JSON pointer of the body, to say what was sent instead. */
function at(value: unknown, instancePath: string): unknown {
  let current = value;
  for (const part of instancePath.split('/').slice(1)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function compileBody(schema: TSchema) {
  const object = schema as unknown as ObjectSchema;
  const check = Compile(schema);
  const allowed = object.properties ? Object.keys(object.properties) : [];
  const optionalBody = object.type === 'object' && (object.required ?? []).length === 0;
  return (input: unknown): { value?: unknown; error?: AdminError } => {
    // No body at all (Fastify passes null): an object body whose fields are all optional.
    if (input === null || input === undefined) {
      if (optionalBody) return { value: {} };
      return {
        error: invalid(
          'body',
          'This endpoint needs a JSON body: send it with `Content-Type: application/json`.',
        ),
      };
    }
    if (check.Check(input)) return { value: input };
    const errors = check.Errors(input);
    const first = errors.find((e) => e.keyword !== 'anyOf') ?? errors[0];
    if (!first) return { error: invalid('body', 'The body does not have the expected shape.') };
    const params = first.params as Record<string, unknown>;
    switch (first.keyword) {
      case 'required': {
        const missing = (params.requiredProperties as string[])[0] ?? '';
        const name = fieldName(first.instancePath, missing);
        return { error: invalid(name, `${name} is required.`) };
      }
      // TypeBox reports a property that additionalProperties: false refuses as the `false`
      // schema failing at that property.
      case 'boolean': {
        const unknown =
          first.instancePath.split('/').at(-1)?.replace(/~1/g, '/').replace(/~0/g, '~') ?? '';
        const name = fieldName(first.instancePath);
        return {
          error: invalid(
            shownName(name),
            `Unknown field ${quotedName(unknown)}; this endpoint accepts: ${allowed.join(', ')}.`,
          ),
        };
      }
      case 'additionalProperties': {
        const unknown = (params.additionalProperties as string[]) ?? [];
        const name = fieldName(first.instancePath, unknown[0]);
        return {
          error: invalid(
            shownName(name),
            `Unknown field ${unknown.map((u) => quotedName(u)).join(', ')}; this endpoint accepts: ${allowed.join(', ')}.`,
          ),
        };
      }
      case 'type': {
        const name = fieldName(first.instancePath);
        // A union (`view`: an object or null) fails once per member at the same place.
        const types = errors
          .filter((e) => e.keyword === 'type' && e.instancePath === first.instancePath)
          .flatMap((e) => [(e.params as Record<string, unknown>).type].flat());
        const expected = [...new Set(types.length > 0 ? types : [params.type].flat())].map((t) =>
          article(String(t)),
        );
        const got = typeOf(at(input, first.instancePath));
        const subject = name === 'body' ? 'The body' : name;
        return {
          error: invalid(name, `${subject} must be ${expected.join(' or ')}, got ${got}.`),
        };
      }
      case 'maxItems':
      case 'minItems':
      case 'maximum':
      case 'minimum':
      case 'maxLength':
      case 'minLength': {
        const name = fieldName(first.instancePath);
        const limit = String(params.limit);
        const rule = {
          maxItems: `have at most ${limit} entries`,
          minItems: `have at least ${limit} entries`,
          maximum: `be at most ${limit}`,
          minimum: `be at least ${limit}`,
          maxLength: `be at most ${limit} characters long`,
          minLength: `be at least ${limit} characters long`,
        }[first.keyword];
        const subject = name === 'body' ? 'The body' : name;
        return { error: invalid(name, `${subject} must ${rule}.`) };
      }
      default: {
        const name = fieldName(first.instancePath);
        return { error: invalid(name, `${name} ${first.message}.`) };
      }
    }
  };
}

/**
 * Query parameters: each one known, given once, and (for those with a closed list of values)
 * one of its values. Every value is a string, as sent.
 */
function compileQuery(schema: TSchema) {
  const object = schema as unknown as ObjectSchema;
  const properties = object.properties ?? {};
  const allowed = Object.keys(properties);
  return (input: unknown): { value?: unknown; error?: AdminError } => {
    const query = (input ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(query)) {
      const property = properties[name];
      if (!property) {
        return {
          error: invalid(
            shownName(name),
            allowed.length > 0
              ? `Unknown query parameter ${quotedName(name)}; this endpoint accepts: ${allowed.join(', ')}. Remove it or correct its name; nothing was changed.`
              : `Unknown query parameter ${quotedName(name)}; this endpoint takes no query parameters: remove it. Nothing was changed.`,
          ),
        };
      }
      if (typeof value !== 'string') {
        return { error: invalid(name, `Give the query parameter ${name} once.`) };
      }
      const values = property.anyOf?.map((option) => option.const);
      if (values && !values.includes(value)) {
        return {
          error: invalid(
            name,
            `${name} must be one of ${values.join(', ')}, got ${JSON.stringify(value.slice(0, 40))}.`,
          ),
        };
      }
    }
    return { value: query };
  };
}

/** Fastify's validatorCompiler for the admin app. Path parameters are checked by the routes. */
export function adminValidator({ schema, httpPart }: { schema: TSchema; httpPart?: string }) {
  if (httpPart === 'querystring') return compileQuery(schema);
  if (httpPart === 'body') return compileBody(schema);
  return (input: unknown) => ({ value: input });
}

/**
 * The validatorCompiler of a route that checks its body itself (bulk upsert rows, each with its
 * own outcome): the body schema only documents it; the query is checked as on any route.
 */
export function bodyCheckedByRoute({ schema, httpPart }: { schema: unknown; httpPart?: string }) {
  if (httpPart === 'body') return (input: unknown) => ({ value: input });
  return adminValidator({ schema: schema as TSchema, httpPart });
}

/**
 * Runs one of the domain's parsers (../domain/) on a body field: the DomainError's message,
 * which says what the value must be, becomes a 400 naming the field.
 */
export function field<T>(name: string, parse: (raw: string) => T, raw: string): T {
  // No stored value can hold it (PostgreSQL text cannot): refused before any lookup.
  if (raw.includes('\u0000')) {
    throw invalid(name, `${name} must not contain the NUL character (U+0000).`);
  }
  try {
    return parse(raw);
  } catch (error) {
    if (error instanceof DomainError) {
      // "slug must be …" already names the field; "must not be empty" does not.
      const text = error.message.startsWith(`${name} `)
        ? error.message
        : `${name}: ${error.message}`;
      throw invalid(name, text.endsWith('.') ? text : `${text}.`);
    }
    throw error;
  }
}
