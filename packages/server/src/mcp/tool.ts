import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import {
  type AccessPolicy,
  chargeQuota,
  type Principal,
  refundQuota,
  requireGrants,
} from '../api/auth.js';
import { ApiError } from '../api/errors.js';
import { internalError, knownFailure } from '../api/failures.js';
import { PARAMS, type ParamName } from '../api/params.js';
import type { QueryChecks } from '../api/query-checks.js';
import { quote, shown } from '../api/query-validator.js';
import type { Services } from '../context.js';
import { maskKeys } from '../keys/format.js';
import type { Organization } from '../store/types.js';
import { argumentsSchema, toolSchema } from './schema.js';

/** What a tool call runs with: the HTTP request it came in, its key and organization. */
export interface ToolContext {
  services: Services;
  request: FastifyRequest;
  principal: Principal;
  organization: Organization;
}

/** What a tool answers: the API's JSON body for the same parameters, and its text rendering. */
export interface ToolAnswer {
  body: Record<string, unknown>;
  text: string;
}

/** An argument of the tool's own (not an API parameter as is): its schema and reading. */
export interface OwnArgument {
  schema: TSchema;
  /** The argument as the API parameter's string; throws an ApiError when it is not usable. */
  read(value: unknown): string;
}

export interface ToolDefinition<Input> {
  name: string;
  title: string;
  /** Written for a model: what the tool answers and when to use it rather than another. */
  description: string;
  /** Its arguments, in order: API parameters (api/params.ts) unless `own` has the name. */
  arguments: readonly string[];
  required?: readonly string[];
  own?: Record<string, OwnArgument>;
  /** The API body it answers with (a route's 200 schema). */
  output: TSchema;
  /** The feature and permission the matching route asks for. */
  access: Pick<AccessPolicy, 'feature' | 'permission'>;
  /** The arguments, as strings, read as the route reads its querystring (same errors). */
  read(parameters: Record<string, string>): Input;
  /** The route's checks of its query against the key and the organization, at the same steps. */
  checks?: QueryChecks<Input>;
  run(context: ToolContext, input: Input): Promise<ToolAnswer>;
}

/** A tool as the server lists and calls it. */
export interface McpTool {
  name: string;
  listing: Tool;
  call(context: ToolContext, args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * A tool made of a definition: its listing (input and output schemas generated from the API's
 * TypeBox schemas) and its call, which runs the API's checks in the API's order: arguments
 * and the key's view (400 codes), feature, permission, the arguments against the
 * organization's data (a location code), then one use of the key's quota (given back when the call
 * fails on our side). Any API error becomes a tool result with `isError`, no structured
 * content, and the error's code and message as text.
 */
export function defineTool<Input>(definition: ToolDefinition<Input>): McpTool {
  const own = definition.own ?? {};
  const ownSchemas = Object.fromEntries(Object.entries(own).map(([n, a]) => [n, a.schema]));
  const listing: Tool = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: toolSchema(
      argumentsSchema(definition.arguments, {
        required: definition.required ?? [],
        own: ownSchemas,
      }),
    ),
    outputSchema: toolSchema(definition.output),
    annotations: { title: definition.title, readOnlyHint: true, openWorldHint: false },
  };

  function parameters(args: Record<string, unknown>): Record<string, string> {
    const unknown = Object.keys(args).filter((name) => !definition.arguments.includes(name));
    const accepted = definition.arguments.length > 0 ? definition.arguments.join(', ') : 'none';
    if (unknown.length > 0) {
      throw new ApiError(
        'UNKNOWN_PARAMETER',
        `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map(quote).join(', ')}; ${definition.name} accepts: ${accepted}.`,
        // Masked as in the message: a key sent as an argument name is never echoed.
        { param: shown(unknown[0] as string) },
      );
    }
    for (const name of definition.required ?? []) {
      if (args[name] === undefined) {
        throw new ApiError(
          'MISSING_PARAMETER',
          `The argument "${name}" is required: ${PARAMS[name as ParamName].invalid}.`,
          { param: name },
        );
      }
    }
    const strings: Record<string, string> = {};
    for (const [name, value] of Object.entries(args)) {
      if (value === undefined || value === null) continue;
      const reader = own[name];
      if (reader) strings[name] = reader.read(value);
      else if (typeof value === 'string') strings[name] = value;
      else {
        throw new ApiError(
          'INVALID_PARAMETER',
          `The argument "${name}" must be a string: ${PARAMS[name as ParamName].invalid}.`,
          { param: name },
        );
      }
    }
    return strings;
  }

  async function call(context: ToolContext, args: Record<string, unknown>) {
    const { services, principal, organization, request } = context;
    let charged = false;
    try {
      const input = definition.read(parameters(args));
      definition.checks?.byKey?.(principal.key, input);
      requireGrants(definition.access, principal.key, organization);
      await definition.checks?.byData?.(services, organization.id, input);
      const charging = chargeQuota(services, principal);
      if (charging) {
        await charging;
        charged = true;
      }
      const answer = await definition.run(context, input);
      services.metrics.toolCall(definition.name, true);
      return {
        content: [{ type: 'text' as const, text: answer.text }],
        structuredContent: answer.body,
      };
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      let failure = knownFailure(services, error, request);
      if (failure === undefined) {
        request.log.error({ err: error, tool: definition.name }, 'unhandled error in an MCP tool');
        failure = internalError(request);
      }
      // As the API gives back the use of a request answered with a 5xx.
      if (charged && failure.status >= 500) await refundQuota(services, principal);
      services.metrics.toolCall(definition.name, false);
      return { isError: true, content: [{ type: 'text' as const, text: errorText(failure) }] };
    }
  }

  return { name: definition.name, listing, call };
}

/**
 * An error as a tool result's text: its code and message (and the argument at fault). Each
 * masks what it echoes; the text is masked once more, so that no message a tool may gain
 * later sends a key back whole.
 */
export function errorText(error: ApiError): string {
  const param = error.param === undefined ? '' : ` (argument: ${error.param})`;
  return maskKeys(`Error ${error.code}${param}: ${error.message}`);
}
