import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { maskKeys } from '../keys/format.js';
import { ApiError } from './errors.js';
import { PARAMS, type ParamName } from './params.js';

/**
 * A per-route check that needs several parameters at once (e.g. a cursor bound to filters).
 * It runs whatever else is wrong, so the message names every problem; `usable(name)` says
 * whether a parameter is absent or passed its own check (neither repeated nor invalid), so the
 * check only relies on values it can trust.
 */
export type CrossCheck = (
  query: Record<string, string>,
  usable: (name: string) => boolean,
) => { param: string; message: string } | null;

const CROSS_CHECK = Symbol('crossCheck');

export function withCrossCheck<T extends object>(schema: T, check: CrossCheck): T {
  Object.defineProperty(schema, CROSS_CHECK, { value: check, enumerable: false });
  return schema;
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
 * Compiles the querystring check of a route. Problems are ranked as DECISIONS.md fixes
 * (unknown > repeated > missing > invalid): `param` names the first, the message all of them.
 */
export function compileQueryValidator(schema: TSchema) {
  const objectSchema = schema as unknown as {
    properties: Record<string, TSchema>;
    required?: string[];
    additionalProperties?: unknown;
    [CROSS_CHECK]?: CrossCheck;
  };
  // A route that accepts anything (health) is not checked at all.
  if (objectSchema.additionalProperties !== false) return (query: unknown) => ({ value: query });
  const allowed = Object.keys(objectSchema.properties);
  const required = objectSchema.required ?? [];
  const checks = new Map(
    allowed.map((name) => [name, Compile(objectSchema.properties[name] as TSchema)]),
  );
  const crossCheck = objectSchema[CROSS_CHECK];
  const allowedList = allowed.length > 0 ? allowed.join(', ') : 'none';

  return (query: unknown): { value?: unknown; error?: ApiError } => {
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
    if (crossCheck) {
      const troubled = new Set(problems.map((p) => p.param));
      const cross = crossCheck(input as Record<string, string>, (name) => !troubled.has(name));
      if (cross) {
        problems.push({ rank: RANK.invalid, code: 'INVALID_PARAMETER', ...cross });
      }
    }
    if (problems.length === 0) return { value: input };
    problems.sort((a, b) => a.rank - b.rank);
    const first = problems[0] as Problem;
    return {
      error: new ApiError(first.code, problems.map((p) => p.message).join(' '), {
        param: first.param,
      }),
    };
  };
}
