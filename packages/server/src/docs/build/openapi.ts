import type { Link, PhrasingContent, RootContent, Table, TableCell, TableRow } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { Strings } from '../i18n.js';

/**
 * Renders an OpenAPI 3.x document as Markdown syntax trees, so the API reference page goes
 * through the same pipeline (HTML and processed Markdown) as every hand-written page. The
 * document comes from the API's route schemas, so it is read defensively: an unexpected shape
 * is shown as far as it can be, never thrown. Every word the generator adds comes from the
 * page's Strings, and every text of the document (summaries, descriptions) goes through the
 * page's `translate`, so the Spanish reference is Spanish throughout.
 */

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'patch', 'trace'] as const;
const MAX_FIELD_DEPTH = 3;
/** Longer patterns (an enumeration spelled as a regex) say less than the description does. */
const MAX_PATTERN_LENGTH = 80;
const markdownParser = unified().use(remarkParse).use(remarkGfm);
/** The description the API gives error responses (api/schemas.ts): `Error: CODE, CODE`. */
const ERROR_LIST = /^Error: ([A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*)$/;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function text(value: string): PhrasingContent {
  return { type: 'text', value };
}

function code(value: string): PhrasingContent {
  return { type: 'inlineCode', value };
}

/** Descriptions may hold Markdown (backticks above all); inline it, keeping its formatting. */
function inline(markdown: string | undefined): PhrasingContent[] {
  if (!markdown) return [];
  const tree = markdownParser.parse(markdown);
  const out: PhrasingContent[] = [];
  for (const block of tree.children) {
    const phrasing: PhrasingContent[] =
      block.type === 'paragraph' || block.type === 'heading'
        ? block.children
        : [text(markdown.slice(block.position?.start.offset ?? 0, block.position?.end.offset))];
    if (out.length > 0) out.push(text(' '));
    out.push(...phrasing);
  }
  return out;
}

function blocks(markdown: string | undefined): RootContent[] {
  if (!markdown) return [];
  // Headings inside a description would break the page outline; demote them to bold paragraphs.
  return markdownParser
    .parse(markdown)
    .children.map((node) =>
      node.type === 'heading'
        ? { type: 'paragraph', children: [{ type: 'strong', children: node.children }] }
        : node,
    );
}

function cell(children: PhrasingContent[]): TableCell {
  return { type: 'tableCell', children };
}

function table(header: string[], rows: PhrasingContent[][][]): Table {
  const head: TableRow = { type: 'tableRow', children: header.map((h) => cell([text(h)])) };
  return {
    type: 'table',
    align: header.map(() => null),
    children: [
      head,
      ...rows.map((row): TableRow => ({ type: 'tableRow', children: row.map(cell) })),
    ],
  };
}

export interface OpenApiViewOptions {
  /** The words of the page's locale. */
  strings: Strings;
  /** Shown as the base URL. */
  apiUrl: string;
  /**
   * The page's rendering of a summary or description of the document, which the API writes in
   * English (`openapi-texts.ts`); as given by default.
   */
  translate?: (english: string) => string;
  /**
   * Heading ids of the same locale's errors page: an error code listed in a response links to
   * its section (`./errors#item_not_found`) when the page has one, and stays plain text when
   * not, so the reference never holds a broken link.
   */
  errorAnchors?: ReadonlySet<string>;
  /**
   * Whether a success body that is a named schema gets its fields spelled out under the
   * endpoint too (true by default, for the HTML page). The processed Markdown says no: there
   * the Responses table names the schema, whose fields the Schemas section lists once (the
   * copies were 4% of the page; issue 34).
   */
  repeatNamedBodies?: boolean;
  /**
   * Whether an error code links to its section every time a response lists it (true by
   * default, for the HTML page), or only the first time on the page, as the processed Markdown
   * does: the same few codes are listed under every endpoint, and their addresses were a sixth of
   * the page there (issue 34).
   */
  linkEveryError?: boolean;
}

export class OpenApiView {
  private readonly doc: Json;
  private readonly strings: Strings;
  private readonly apiUrl: string;
  private readonly translate: (english: string) => string;
  private readonly errorAnchors: ReadonlySet<string>;
  private readonly repeatNamedBodies: boolean;
  private readonly linkEveryError: boolean;
  /** The anchors of the error codes already linked by this rendering. */
  private readonly linkedErrors = new Set<string>();

  constructor(doc: unknown, options: OpenApiViewOptions) {
    this.doc = isObject(doc) ? doc : {};
    this.strings = options.strings;
    this.apiUrl = options.apiUrl;
    this.translate = options.translate ?? ((english) => english);
    this.errorAnchors = options.errorAnchors ?? new Set();
    this.repeatNamedBodies = options.repeatNamedBodies ?? true;
    this.linkEveryError = options.linkEveryError ?? true;
  }

  /** A summary or description of the document, in the page's language; undefined when blank. */
  private words(value: unknown): string | undefined {
    const given = str(value);
    return given === undefined ? undefined : this.translate(given);
  }

  /** The named schemas, which render() lists under Schemas. */
  private namedSchemas(): Json {
    const components = isObject(this.doc.components) ? this.doc.components : {};
    return isObject(components.schemas) ? components.schemas : {};
  }

  /** A `#/components/schemas/Name` reference to a schema the Schemas section lists. */
  private isListedSchema(schema: unknown): boolean {
    if (!isObject(schema) || typeof schema.$ref !== 'string') return false;
    const prefix = '#/components/schemas/';
    const name = schema.$ref.startsWith(prefix) ? schema.$ref.slice(prefix.length) : '';
    return !name.includes('/') && Object.hasOwn(this.namedSchemas(), name);
  }

  private resolve(value: unknown): Json {
    let current = value;
    // Follow local references only; a cycle stops after a few hops.
    for (let hops = 0; hops < 8 && isObject(current) && typeof current.$ref === 'string'; hops++) {
      const ref: string = current.$ref;
      if (!ref.startsWith('#/')) break;
      let target: unknown = this.doc;
      for (const part of ref.slice(2).split('/')) {
        const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
        target = isObject(target) ? target[key] : undefined;
      }
      current = target;
    }
    return isObject(current) ? current : {};
  }

  private refName(schema: Json): string | undefined {
    return typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  }

  /** A one-line type such as `string | null`, `array of InventoryItem` or `"Draft" | "Active"`. */
  typeOf(schema: unknown): string {
    const s = this.strings.api;
    if (!isObject(schema)) return s.any;
    const ref = this.refName(schema);
    if (ref) return ref;
    if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
    if ('const' in schema) return JSON.stringify(schema.const);
    const union = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(union)) return union.map((s) => this.typeOf(s)).join(' | ');
    if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => this.typeOf(s)).join(' & ');
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const names = types
      .filter((t): t is string => typeof t === 'string')
      .map((t) => {
        if (t === 'array') return `${s.arrayOf} ${this.typeOf(schema.items)}`;
        if (t === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
        return t;
      });
    return names.length > 0 ? names.join(' | ') : s.any;
  }

  private constraints(schema: Json): string[] {
    const c = this.strings.api.constraints;
    const out: string[] = [];
    if (typeof schema.pattern === 'string' && schema.pattern.length <= MAX_PATTERN_LENGTH) {
      out.push(`${c.pattern} \`${schema.pattern}\``);
    }
    if (typeof schema.minLength === 'number') out.push(`${c.minLength} ${schema.minLength}`);
    if (typeof schema.maxLength === 'number') out.push(`${c.maxLength} ${schema.maxLength}`);
    if (typeof schema.minimum === 'number') out.push(`${c.minimum} ${schema.minimum}`);
    if (typeof schema.maximum === 'number') out.push(`${c.maximum} ${schema.maximum}`);
    if ('default' in schema) out.push(`${c.default} \`${JSON.stringify(schema.default)}\``);
    return out;
  }

  /** `query` → the locale's word for it; a location OpenAPI does not define is shown as given. */
  private location(value: unknown): string {
    const where = String(value ?? '');
    const locations: Record<string, string> = this.strings.api.locations;
    return Object.hasOwn(locations, where) ? (locations[where] ?? where) : where;
  }

  /**
   * A response's description. Fastify's placeholder says nothing, so the locale's reason phrase
   * replaces it; a list of error codes names each one, linked to its section of the errors page
   * (in code when already linked, as plain text when the errors page has no section for it).
   */
  private responseDescription(status: string, given: string | undefined): PhrasingContent[] {
    const s = this.strings.api;
    if (!given || given === 'Default Response') {
      return [text(Object.hasOwn(s.statusPhrases, status) ? (s.statusPhrases[status] ?? '') : '')];
    }
    const codes = ERROR_LIST.exec(given)?.[1]?.split(', ');
    if (!codes) return inline(this.translate(given));
    const out: PhrasingContent[] = [text(`${s.errors}: `)];
    for (const [index, name] of codes.entries()) {
      if (index > 0) out.push(text(', '));
      const anchor = name.toLowerCase();
      if (this.errorAnchors.has(anchor) && !this.linkedErrors.has(anchor)) {
        const linked: Link = { type: 'link', url: `./errors#${anchor}`, children: [code(name)] };
        out.push(linked);
        if (!this.linkEveryError) this.linkedErrors.add(anchor);
      } else if (this.errorAnchors.has(anchor)) {
        out.push(code(name));
      } else {
        out.push(text(name));
      }
    }
    return out;
  }

  /** Properties as rows `name | type | description`, nested objects flattened as `a.b`. */
  private fieldRows(schema: unknown, prefix = '', depth = 0): PhrasingContent[][][] {
    const resolved = this.resolve(schema);
    const properties = isObject(resolved.properties) ? resolved.properties : {};
    const required = Array.isArray(resolved.required) ? resolved.required : [];
    const rows: PhrasingContent[][][] = [];
    for (const [name, raw] of Object.entries(properties)) {
      const prop = isObject(raw) ? raw : {};
      const path = `${prefix}${name}`;
      const description = inline(
        this.words(prop.description) ?? this.words(this.resolve(prop).description),
      );
      const optional = required.includes(name) ? [] : [text(` ${this.strings.api.optional}`)];
      rows.push([[code(path)], [code(this.typeOf(prop)), ...optional], description]);
      const nested = this.refName(prop) ? undefined : this.objectSchema(prop);
      if (nested && depth + 1 < MAX_FIELD_DEPTH)
        rows.push(...this.fieldRows(nested, `${path}.`, depth + 1));
    }
    return rows;
  }

  /** The inline object schema of a property (or of its nullable variant), if any. */
  private objectSchema(prop: Json): Json | undefined {
    if (isObject(prop.properties)) return prop;
    const union = prop.anyOf ?? prop.oneOf;
    if (Array.isArray(union)) {
      const objects = union.filter(
        (s): s is Json => isObject(s) && isObject(s.properties) && !s.$ref,
      );
      if (objects.length === 1) return objects[0];
    }
    return undefined;
  }

  private parameters(operation: Json, pathItem: Json): RootContent[] {
    const s = this.strings.api;
    const list = [
      ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
      ...(Array.isArray(operation.parameters) ? operation.parameters : []),
    ].map((p) => this.resolve(p));
    const heading: RootContent = { type: 'heading', depth: 3, children: [text(s.parameters)] };
    if (list.length === 0)
      return [heading, { type: 'paragraph', children: [text(s.noParameters)] }];
    const rows = list.map((param) => {
      const schema = this.resolve(param.schema ?? {});
      const extra = this.constraints(isObject(param.schema) ? param.schema : schema);
      const description = inline(this.words(param.description) ?? this.words(schema.description));
      const details = extra.length > 0 ? inline(`(${extra.join(', ')})`) : [];
      return [
        [code(String(param.name ?? ''))],
        [text(this.location(param.in))],
        [text(param.required === true ? s.yes : s.no)],
        [code(this.typeOf(param.schema))],
        [
          ...description,
          ...(description.length > 0 && details.length > 0 ? [text(' ')] : []),
          ...details,
        ],
      ];
    });
    return [heading, table([s.name, s.in, s.required, s.type, s.description], rows)];
  }

  private responses(operation: Json): RootContent[] {
    const s = this.strings.api;
    const responses = isObject(operation.responses) ? operation.responses : {};
    const rows: PhrasingContent[][][] = [];
    const details: RootContent[] = [];
    for (const [status, raw] of Object.entries(responses)) {
      const response = this.resolve(raw);
      const content = isObject(response.content) ? response.content : {};
      const media = Object.values(content).find(isObject);
      const schema = media?.schema;
      const description = this.responseDescription(status, str(response.description));
      rows.push([[code(status)], description, schema ? [code(this.typeOf(schema))] : []]);
      // Success bodies get their fields spelled out; errors all share ErrorResponse.
      const listed = !this.repeatNamedBodies && this.isListedSchema(schema);
      if (status.startsWith('2') && schema && !listed) {
        const fields = this.fieldRows(schema);
        if (fields.length > 0) {
          details.push(
            {
              type: 'paragraph',
              children: [{ type: 'strong', children: [text(`${status} · ${s.fields}`)] }],
            },
            table([s.name, s.type, s.description], fields),
          );
        }
      }
    }
    return [
      { type: 'heading', depth: 3, children: [text(s.responses)] },
      table([s.status, s.description, s.type], rows),
      ...details,
    ];
  }

  private security(operation: Json): PhrasingContent[] {
    const s = this.strings.api;
    const security = Array.isArray(operation.security) ? operation.security : this.doc.security;
    const needsKey =
      Array.isArray(security) &&
      security.some((req) => isObject(req) && Object.keys(req).length > 0);
    return [
      { type: 'strong', children: [text(`${s.authentication}:`)] },
      text(' '),
      ...(needsKey ? inline(s.apiKey) : [text(s.noAuthentication)]),
    ];
  }

  /** Every operation, then every named schema. */
  render(): RootContent[] {
    const s = this.strings.api;
    this.linkedErrors.clear();
    const out: RootContent[] = [
      {
        type: 'paragraph',
        children: [
          { type: 'strong', children: [text(`${s.baseUrl}:`)] },
          text(' '),
          code(this.apiUrl),
        ],
      },
    ];
    const paths = isObject(this.doc.paths) ? this.doc.paths : {};
    for (const [path, rawItem] of Object.entries(paths)) {
      const pathItem = this.resolve(rawItem);
      for (const method of METHODS) {
        const operation = pathItem[method];
        if (!isObject(operation)) continue;
        out.push({
          type: 'heading',
          depth: 2,
          children: [text(`${method.toUpperCase()} ${path}`)],
        });
        const summary = this.words(operation.summary);
        if (summary)
          out.push({
            type: 'paragraph',
            children: [{ type: 'strong', children: inline(summary) }],
          });
        out.push(...blocks(this.words(operation.description)));
        out.push({ type: 'paragraph', children: this.security(operation) });
        out.push(...this.parameters(operation, pathItem), ...this.responses(operation));
      }
    }
    const schemas = this.namedSchemas();
    const names = Object.keys(schemas);
    if (names.length > 0) out.push({ type: 'heading', depth: 2, children: [text(s.schemas)] });
    for (const name of names) {
      const schema = this.resolve(schemas[name]);
      out.push({ type: 'heading', depth: 3, children: [text(name)] });
      out.push(...blocks(this.words(schema.description)));
      const fields = this.fieldRows(schema);
      if (fields.length > 0) out.push(table([s.name, s.type, s.description], fields));
      else out.push({ type: 'paragraph', children: [code(this.typeOf(schema))] });
    }
    return out;
  }
}
