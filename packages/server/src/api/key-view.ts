import { type ViewRules, viewRules } from '../domain/view.js';
import type { ApiKeyRecord, Item, ItemScope } from '../store/types.js';
import { ApiError } from './errors.js';
import { ITEM_FIELDS, type ItemField } from './item-fields.js';
import { TopLevelKeyCutter } from './json-keys.js';

/**
 * What one key may see of the items (docs/architecture.md#key-views), as the API applies it: the
 * rows go to the store as a scope (applied inside its queries); hidden fields are refused in
 * `fields` and in the filters that would reveal them, and left out of every item; quantities
 * are capped. Shared by the routes and the MCP tools, which answer with the routes' bodies.
 */
export class KeyViewOfItems {
  private constructor(
    private readonly rules: ViewRules,
    /** When the view was last set or cleared (epoch ms). */
    readonly since: number,
    private readonly shown: readonly ItemField[],
    /** Cuts the hidden custom fields out of an item's customFields; null when none is hidden. */
    private readonly hiddenCustom: TopLevelKeyCutter | null,
  ) {}

  /**
   * The view of a key, or null when it sees every item whole and always has (no view, the
   * common case). A key whose view was cleared has an empty one: it sees everything, and a
   * sync from before the clearing still starts over (the items it could not see come back).
   */
  static of(key: ApiKeyRecord): KeyViewOfItems | null {
    if (key.view === null && key.viewUpdatedAt === null) return null;
    const rules = viewRules(key.view ?? EVERYTHING);
    const shown = ITEM_FIELDS.filter((field) => !rules.hiddenFields.has(field));
    return new KeyViewOfItems(
      rules,
      key.viewUpdatedAt ?? 0,
      shown,
      rules.hiddenCustomFields.length === 0
        ? null
        : new TopLevelKeyCutter(new Set(rules.hiddenCustomFields)),
    );
  }

  /** The rows the key may see, for the store. */
  get scope(): ItemScope {
    return this.rules.scope;
  }

  /**
   * Whether the key may learn when items changed: not when its view hides `updatedAt`. Then
   * it gets no `Last-Modified`, and no incremental sync (check), whose instants and tokens
   * would tell when each item changed to the millisecond (docs: Key views, "Hidden fields").
   */
  get showsUpdatedAt(): boolean {
    return !this.rules.hiddenFields.has('updatedAt');
  }

  /**
   * Refuses `fields` naming a hidden field, and a filter on one (`sku=`, `barcode=`,
   * `status=`, `location=` when `stock` is hidden, an incremental sync when `updatedAt` is):
   * each would show what the view hides.
   */
  check(query: {
    fields?: readonly ItemField[] | undefined;
    sku?: string | undefined;
    barcode?: string | undefined;
    status?: string | undefined;
    location?: string | undefined;
    /** The incremental sync of `updatedSince`, when asked for. */
    sync?: object | null | undefined;
  }): void {
    const hidden = this.rules.hiddenFields;
    for (const field of query.fields ?? []) {
      if (hidden.has(field)) {
        throw new ApiError(
          'INVALID_PARAMETER',
          `The field ${field} is not available to this key: its view hides it. Remove ${field} from fields (GET /api/v1/auth/verify shows what the key's view hides).`,
          { param: 'fields' },
        );
      }
    }
    const filters = [
      ['sku', 'sku'],
      ['barcode', 'barcode'],
      ['status', 'status'],
      ['location', 'stock'],
    ] as const;
    for (const [param, field] of filters) {
      if (query[param] !== undefined && hidden.has(field)) {
        throw new ApiError(
          'INVALID_PARAMETER',
          `The ${param} filter is not available to this key: its view hides the ${field} field it filters on. Drop ${param} (GET /api/v1/auth/verify shows what the key's view hides).`,
          { param },
        );
      }
    }
    if (query.sync !== undefined && query.sync !== null && !this.showsUpdatedAt) {
      throw new ApiError(
        'INVALID_PARAMETER',
        "updatedSince is not available to this key: its view hides updatedAt, and an incremental sync tells when each item changed. Drop updatedSince (and includeDeleted) and read the list page by page, or ask the operator to show updatedAt (GET /api/v1/auth/verify shows what the key's view hides).",
        { param: 'updatedSince' },
      );
    }
  }

  /** The fields to write: those asked for (already checked), or every field the view shows. */
  fields(asked: readonly ItemField[] | undefined): readonly ItemField[] {
    return asked ?? this.shown;
  }

  /** The item as the key sees it: quantities capped, hidden custom fields left out. */
  item(item: Item): Item {
    const cap = this.rules.quantityCap;
    // Stock rows are never negative and add up to the quantity: none exceeds it.
    const capped = cap !== null && item.quantity > cap;
    const customFields = this.hiddenCustom?.cut(item.customFields) ?? item.customFields;
    if (!capped && customFields === item.customFields) return item;
    const seen = { ...item, customFields };
    if (capped) {
      seen.quantity = cap;
      if (item.stock !== '[]') seen.stock = capStock(item.stock, cap);
    }
    return seen;
  }
}

const EVERYTHING = { where: [], hideFields: [], quantityCap: null };

/**
 * Stock rows with each quantity capped, on the stored text as stockText writes it
 * (`[{"location":CODE,"quantity":N},…]`, codes without quotes): what was at or below the cap
 * keeps its bytes.
 */
function capStock(text: string, cap: number): string {
  return text.replace(/"quantity":([^,}]+)/g, (member, quantity: string) =>
    Number(quantity) > cap ? `"quantity":${cap}` : member,
  );
}
