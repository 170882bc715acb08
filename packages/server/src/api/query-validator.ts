import type { FastifySchemaCompiler } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { maskKeys } from '../keys/format.js';
import { ApiError } from './errors.js';
import { PARAMS, type ParamName, type QueryProperties, querySchema } from './params.js';

/** What a route's reader makes of its querystring: the handler's values, or a problem. */
export type QueryReading<T> = { value: T } | { problem: { param: string; message: string } };

/**
 * Reads a route's querystring into the values its handler works with (a decoded cursor, a sync
 * point, a number), and finds the problems that need several parameters at once (a cursor
 * bound to other filters). `query` holds only the parameters that passed their own check;
 * `usable(name)` says whether a parameter is absent or passed it (neither repeated nor
 * invalid). It runs whatever else is wrong, so the message names every problem; its value is
 * used only when nothing is.
 */
export type QueryReader<Raw, Parsed> = (
  query: Raw,
  usable: (name: keyof Raw & string) => boolean,
) => QueryReading<Parsed>;

/** Fastify's validator result: the value becomes `request.query`. */
type Validation = { value?: unknown; error?: ApiError };

/**
 * A route's querystring: its schema (validation and OpenAPI) and the validator compiler that
 * checks it and hands the handler `Parsed`. A route passes both, `schema.querystring` and
 * `validatorCompiler`; its handler's `request.query` is then `ParsedQuery<typeof query>`.
 */
export interface RouteQuery<Parsed> {
  readonly schema: TObject;
  readonly validatorCompiler: FastifySchemaCompiler<unknown>;
  /**
   * The same check outside Fastify (the MCP tools: mcp/tools.ts): the parameters as strings,
   * read into `Parsed`, or the ApiError the route would answer.
   */
  readonly validate: (query: Record<string, string>) => Parsed;
  /** Types only: what the handler receives. */
  readonly parsed?: Parsed;
}

/** A querystring of the named parameters as sent, once each passed its own check. */
export type RawQuery<O extends ParamName, R extends ParamName = never> = Static<
  TObject<QueryProperties<O, R>>
>;

export type ParsedQuery<Q> = Q extends RouteQuery<infer Parsed> ? Parsed : never;

/**
 * The querystring of a route: the named parameters (`required` ones must be present), and the
 * reader that turns them into the handler's values; without one, the handler gets the strings.
 */
export function routeQuery<
  const O extends ParamName,
  const R extends ParamName = never,
  Parsed = RawQuery<O, R>,
>(spec: {
  optional: readonly O[];
  required?: readonly R[];
  read?: QueryReader<RawQuery<O, R>, Parsed>;
}): RouteQuery<Parsed> {
  const schema = querySchema(spec.optional, spec.required);
  const validate = compileQueryValidator(schema, spec.read as QueryReader<unknown, unknown>);
  return {
    schema,
    validate: (query) => {
      const result = validate(query);
      if (result.error) throw result.error;
      return result.value as Parsed;
    },
    // Only the querystring is checked; the API's routes take no body and no path parameters.
    validatorCompiler: ({ httpPart }) =>
      httpPart === 'querystring' ? validate : () => ({ value: undefined }),
  };
}

interface Problem {
  rank: number;
  code: 'UNKNOWN_PARAMETER' | 'INVALID_PARAMETER' | 'MISSING_PARAMETER';
  param: string;
  message: string;
}

const RANK = { unknown: 0, repeated: 1, missing: 2, invalid: 3 };

/**
 * Keeps control characters, huge values and anything shaped like an API key out of a message
 * while naming the value.
 */
export function quote(value: string): string {
  return JSON.stringify(shown(value));
}

/** The same, unquoted: what `param` names when the parameter is one the client made up. */
export function shown(value: string): string {
  // Masked first, so a key is shown as its display prefix rather than cut mid-way.
  const masked = maskKeys(value);
  return masked.length > 40 ? `${masked.slice(0, 40)}…` : masked;
}

/**
 * Compiles the querystring check of a route. Problems are ranked unknown > repeated > missing >
 * invalid: `param` names the first (the one a client fixes first), the message all of them.
 */
export function compileQueryValidator(
  schema: TSchema,
  read?: QueryReader<unknown, unknown>,
): (query: unknown) => Validation {
  const objectSchema = schema as unknown as {
    properties: Record<string, TSchema>;
    required?: string[];
    additionalProperties?: unknown;
  };
  // A route that accepts anything (health) is not checked at all.
  if (objectSchema.additionalProperties !== false) return (query: unknown) => ({ value: query });
  const allowed = Object.keys(objectSchema.properties);
  const required = objectSchema.required ?? [];
  const checks = new Map(
    allowed.map((name) => [name, Compile(objectSchema.properties[name] as TSchema)]),
  );
  const allowedList = allowed.length > 0 ? allowed.join(', ') : 'none';

  return (query: unknown): Validation => {
    const input = (query ?? {}) as Record<string, unknown>;
    const problems: Problem[] = [];
    for (const name of Object.keys(input)) {
      const value = input[name];
      if (!checks.has(name)) {
        problems.push({
          rank: RANK.unknown,
          code: 'UNKNOWN_PARAMETER',
          // Cut and masked as in the message: a key sent as a parameter name is never echoed.
          param: shown(name),
          message: `Unknown query parameter ${quote(name)}; this endpoint accepts: ${allowedList}.`,
        });
      } else if (Array.isArray(value)) {
        problems.push({
          rank: RANK.repeated,
          code: 'INVALID_PARAMETER',
          param: name,
          message: `Query parameter "${name}" was sent ${value.length} times; send it once.`,
        });
      }
    }
    for (const name of required) {
      if (!Object.hasOwn(input, name)) {
        problems.push({
          rank: RANK.missing,
          code: 'MISSING_PARAMETER',
          param: name,
          message: `Query parameter "${name}" is required: ${PARAMS[name as ParamName].invalid}.`,
        });
      }
    }
    for (const [name, check] of checks) {
      const value = input[name];
      if (value === undefined || Array.isArray(value)) continue;
      if (!check.Check(value)) {
        problems.push({
          rank: RANK.invalid,
          code: 'INVALID_PARAMETER',
          param: name,
          message: `Invalid ${name} ${quote(String(value))}: ${PARAMS[name as ParamName].invalid}.`,
        });
      }
    }
    let reading: QueryReading<unknown> = { value: input };
    if (read) {
      const troubled = new Set(problems.map((p) => p.param));
      const usable: Record<string, unknown> = {};
      for (const name of checks.keys()) {
        if (input[name] !== undefined && !troubled.has(name)) usable[name] = input[name];
      }
      reading = read(usable, (name) => !troubled.has(name));
      if ('problem' in reading) {
        problems.push({ rank: RANK.invalid, code: 'INVALID_PARAMETER', ...reading.problem });
      }
    }
    if (problems.length === 0 && 'value' in reading) return { value: reading.value };
    problems.sort((a, b) => a.rank - b.rank);
    const first = problems[0] as Problem;
    return {
      error: new ApiError(first.code, problems.map((p) => p.message).join(' '), {
        param: first.param,
      }),
    };
  };
}
