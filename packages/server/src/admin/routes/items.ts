import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Services } from '../../context.js';
import { parseSku } from '../../domain/sku.js';
import { isId } from '../../ids.js';
import { customFieldsNestingReason, unholdableNumber } from '../../items/validate.js';
import { deleteItems, type ItemRef, upsertItems } from '../../operations/items.js';
import { actorOf, findOrganization } from '../context.js';
import { AdminError, invalid } from '../errors.js';
import {
  AdminErrorResponse,
  adminErrors,
  BulkDeleteBody,
  BulkUpsertBody,
  DeleteResult,
  MAX_BULK_BODY_BYTES,
  MAX_BULK_ROWS,
  OrgParam,
  UpsertResult,
} from '../schemas.js';
import { bodyCheckedByRoute, field } from '../validation.js';

const TAGS = ['Items'];
const UpsertQuery = Type.Object({
  mode: Type.Optional(
    Type.Union([Type.Literal('all-or-nothing'), Type.Literal('per-row')], {
      description:
        '`all-or-nothing` (default): one rejected row writes nothing (422 ITEMS_REJECTED). `per-row`: the valid rows are written and the rejected ones reported.',
    }),
  ),
  dryRun: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: 'true: compute every outcome, write nothing.',
    }),
  ),
});

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export default function itemRoutes(app: FastifyInstance, services: Services) {
  const store = services.store;

  // The rows are documented by BulkUpsertBody but checked here, row by row: the body is unknown.
  app.post<{ Params: Static<typeof OrgParam>; Querystring: Static<typeof UpsertQuery> }>(
    '/admin/v1/organizations/:org/items/bulk-upsert',
    {
      bodyLimit: MAX_BULK_BODY_BYTES,
      validatorCompiler: bodyCheckedByRoute,
      schema: {
        summary: 'Upsert items in bulk',
        description: `Upserts up to ${MAX_BULK_ROWS} items by sku, with the row checks of \`stockroom items import\` (a JSON array): rows without a sku are created; a row identical to what is stored is \`unchanged\` and keeps its updatedAt; a field absent from a row is left as stored. Every row gets an outcome. Changed items reach incremental sync (\`updatedSince\`) like any other write.`,
        tags: TAGS,
        params: OrgParam,
        querystring: UpsertQuery,
        body: BulkUpsertBody,
        response: {
          200: Type.Object({ data: UpsertResult }),
          422: Type.Object(
            { ...AdminErrorResponse.properties, result: UpsertResult },
            {
              description:
                'Error: ITEMS_REJECTED (all-or-nothing: nothing was written; `result.rows` gives each row’s outcome and each rejected row’s reason)',
            },
          ),
          ...Object.fromEntries(
            Object.entries(
              adminErrors([
                'INVALID_REQUEST',
                'ORGANIZATION_NOT_FOUND',
                'PAYLOAD_TOO_LARGE',
                'UNSUPPORTED_MEDIA_TYPE',
              ]),
            ).filter(([status]) => status !== '422'),
          ),
        },
      },
    },
    async (request) => {
      const { org } = request.params;
      const query = request.query;
      const rows = request.body;
      if (!Array.isArray(rows)) {
        throw invalid(
          'body',
          `The body must be a JSON array of items (at most ${MAX_BULK_ROWS}), e.g. [{"sku":"TENT-1","name":"Tent","quantity":3}].`,
        );
      }
      if (rows.length > MAX_BULK_ROWS) {
        throw invalid(
          'body',
          `The body has ${rows.length} rows; send at most ${MAX_BULK_ROWS} per request (split the rest into further requests).`,
        );
      }
      // A nesting too deep to check or store safely refuses the whole request, in every mode
      // (the one nesting rule of imports, items/validate.ts), before anything else is done.
      for (const [index, row] of rows.entries()) {
        if (typeof row !== 'object' || row === null || Array.isArray(row)) continue;
        const reason = customFieldsNestingReason((row as { customFields?: unknown }).customFields);
        if (reason) {
          throw invalid(
            `body[${index}].customFields`,
            `Row ${index}: ${reason}. Nothing was written; flatten the row's customFields and send the request again.`,
          );
        }
        // Beyond a double (1e400 parses to Infinity), a number would be stored as Infinity and
        // served as null: refused like the nesting, whatever the mode.
        const unholdable = unholdableNumber(row);
        if (unholdable) {
          throw invalid(
            `body[${index}].${unholdable.field}`,
            `Row ${index}: ${unholdable.reason}. Nothing was written; fix the row and send the request again.`,
          );
        }
      }
      const organization = await findOrganization(store, org);
      const result = await upsertItems(store, actorOf(request), organization, rows, {
        mode: query.mode ?? 'all-or-nothing',
        dryRun: query.dryRun === 'true',
      });
      if (result.mode === 'all-or-nothing' && result.failed > 0) {
        const first = result.rows.find((row) => row.outcome === 'failed');
        throw new AdminError(
          'ITEMS_REJECTED',
          `${plural(result.failed, 'row was', 'rows were')} rejected, so nothing was written (mode all-or-nothing); first: row ${first?.index}: ${first?.reason}. Fix the rows listed in result.rows, or send mode=per-row to write the valid ones.`,
          { extra: { result } },
        );
      }
      return { data: result };
    },
  );

  app.post<{ Params: Static<typeof OrgParam>; Body: Static<typeof BulkDeleteBody> }>(
    '/admin/v1/organizations/:org/items/bulk-delete',
    {
      schema: {
        summary: 'Delete items in bulk',
        description: `As \`stockroom items delete\`, for up to ${MAX_BULK_ROWS} items by \`_id\` and by sku. Each deletion leaves a tombstone, which incremental sync with \`includeDeleted=true\` reports, and an audit event. An item that does not exist is reported \`not_found\`; the others are still deleted. Every id and sku is checked before anything is deleted, and the deletions are one transaction: all of them, or none if the database fails midway.`,
        tags: TAGS,
        params: OrgParam,
        body: BulkDeleteBody,
        response: {
          200: Type.Object({ data: DeleteResult }),
          ...adminErrors(['INVALID_REQUEST', 'ORGANIZATION_NOT_FOUND', 'UNSUPPORTED_MEDIA_TYPE']),
        },
      },
    },
    async (request) => {
      const { org } = request.params;
      const body = request.body;
      const ids = body.ids ?? [];
      const skus = body.skus ?? [];
      if (ids.length + skus.length === 0) {
        throw invalid('body', 'Nothing to delete: send ids, skus or both (non-empty arrays).');
      }
      if (ids.length + skus.length > MAX_BULK_ROWS) {
        throw invalid(
          'body',
          `ids and skus hold ${ids.length + skus.length} entries; send at most ${MAX_BULK_ROWS} per request.`,
        );
      }
      ids.forEach((id, i) => {
        if (!isId(id)) {
          throw invalid(
            `ids[${i}]`,
            `ids[${i}] must be an item _id: 24 lowercase hex characters, got ${JSON.stringify(id.slice(0, 40))}.`,
          );
        }
      });
      for (const [i, sku] of skus.entries()) field(`skus[${i}]`, parseSku, sku);
      const organization = await findOrganization(store, org);
      const actor = actorOf(request);
      const refs: ItemRef[] = [...ids.map((id) => ({ id })), ...skus.map((sku) => ({ sku }))];
      const outcomes = await deleteItems(store, actor, organization, refs);
      const rows = refs.map((ref, i) => ({
        ...ref,
        outcome: outcomes[i] ? ('deleted' as const) : ('not_found' as const),
      }));
      const deleted = rows.filter((row) => row.outcome === 'deleted').length;
      return { data: { deleted, notFound: rows.length - deleted, rows } };
    },
  );
}
