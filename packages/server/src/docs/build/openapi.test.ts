import { STATUS_CODES } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STRINGS } from '../i18n.js';
import { type RunningDocs, startDocs } from '../testing.js';
import { OpenApiView } from './openapi.js';

/**
 * The API reference generator, through the docs host: every word it adds to the OpenAPI
 * document's own text must be in the page's language. The fixture uses every feature the
 * generator renders and holds no English of its own, so any English on the Spanish page is the
 * generator's.
 */

const EVERY_STATUS = Object.fromEntries(
  Object.keys(STATUS_CODES).map((status) => [status, { description: 'Default Response' }]),
);

const FIXTURE = {
  openapi: '3.1.0',
  info: { title: 'Fixture', version: '1.0.0' },
  paths: {
    '/api/v1/cosas/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        summary: 'Una cosa',
        security: [{ ApiKeyHeader: [] }],
        parameters: [
          {
            name: 'limite',
            in: 'query',
            schema: { type: 'string', pattern: '^[0-9]+$', minLength: 1, maxLength: 4 },
          },
          { name: 'cuantas', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 9 } },
          { name: 'orden', in: 'query', schema: { type: 'string', default: 'asc' } },
          { name: 'x-traza', in: 'header', schema: { type: 'string' } },
          { name: 'sesion', in: 'cookie', schema: { type: 'string' } },
          { name: 'libre', in: 'query' },
        ],
        responses: {
          '200': {
            description: 'Default Response',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['datos'],
                  properties: {
                    datos: { type: 'array', items: { $ref: '#/components/schemas/Cosa' } },
                    etiquetas: { type: 'array', items: { type: 'string' } },
                    extra: {},
                  },
                },
              },
            },
          },
          '400': { description: 'Error: UNKNOWN_PARAMETER, INVALID_PARAMETER' },
          '404': { description: 'Error: ITEM_NOT_FOUND, COSA_DESCONOCIDA' },
          '503': {},
        },
      },
    },
    '/api/v1/estados': {
      get: { summary: 'Todos los estados', responses: EVERY_STATUS },
    },
  },
  components: {
    schemas: {
      Cosa: {
        type: 'object',
        required: ['_id'],
        properties: { _id: { type: 'string' }, fecha: { type: 'string', format: 'date-time' } },
      },
    },
  },
};

let docs: RunningDocs;
let es: string;
let en: string;
let esHtml: string;

beforeAll(async () => {
  docs = await startDocs({ openapi: FIXTURE });
  const text = async (path: string) => {
    const response = await fetch(docs.url + path);
    expect(response.status).toBe(200);
    return response.text();
  };
  es = await text('/es/docs/api-reference.mdx');
  en = await text('/en/docs/api-reference.mdx');
  esHtml = await text('/es/docs/api-reference');
});

afterAll(async () => {
  await docs.close();
});

/** Every string of a nested table, reason phrases aside (they have a test of their own). */
function words(table: object): string[] {
  return Object.entries(table).flatMap(([key, value]) => {
    if (key === 'statusPhrases') return [];
    if (typeof value === 'string') return [value];
    return typeof value === 'object' && value !== null ? words(value) : [];
  });
}

function literal(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the Spanish API reference', () => {
  test('holds none of the generator’s English words', () => {
    // The words the audit found, spelled out so that a regression to hard-coded English fails
    // even if it bypasses the Strings table.
    const english = [
      '(optional)',
      'array of',
      '`any`',
      'OK',
      'Service Unavailable',
      'Not Found',
      'Bad Request',
      'pattern',
      'minLength',
      'maxLength',
      'minimum',
      'maximum',
      'default',
      'query',
      'header',
      'Base URL',
      'Parameters',
      'Responses',
    ];
    // And every other word of the English table that Spanish spells differently.
    const en = STRINGS.en.api;
    const esWords = words(STRINGS.es.api);
    for (const word of words(en)) if (!esWords.includes(word)) english.push(word);
    const found = english.filter((word) => new RegExp(`(^|\\W)${literal(word)}($|\\W)`).test(es));
    expect(found).toEqual([]);
  });

  test('says it in Spanish instead', () => {
    expect(es).toContain('**URL base:** `https://api.example.test`');
    expect(es).toMatch(/\|`datos`\|`array de Cosa`\|/);
    expect(es).toMatch(/\|`etiquetas`\|`array de string` \(opcional\)\|/);
    expect(es).toMatch(/\|`extra`\|`cualquiera` \(opcional\)\|/);
    expect(es).toMatch(/\|`fecha`\|`string \(date-time\)` \(opcional\)\|/);
    expect(es).toMatch(
      /\|`limite`\|consulta\|no\|`string`\|\(patrón `\^\[0-9\]\+\$`, longitud mínima 1, longitud máxima 4\)\|/,
    );
    expect(es).toMatch(/\|`cuantas`\|consulta\|no\|`integer`\|\(mínimo 1, máximo 9\)\|/);
    expect(es).toMatch(/\|`orden`\|consulta\|no\|`string`\|\(valor por defecto `"asc"`\)\|/);
    expect(es).toMatch(/\|`id`\|ruta\|sí\|/);
    expect(es).toMatch(/\|`x-traza`\|cabecera\|no\|/);
    expect(es).toMatch(/\|`200`\|Correcto\|`object`\|/);
    expect(es).toMatch(/\|`503`\|Servicio no disponible\|\|/);
  });

  test('gives every HTTP status a Spanish reason phrase', () => {
    for (const [status, phrase] of Object.entries(STATUS_CODES)) {
      const row = new RegExp(`^\\|\`${status}\`\\|([^|]*?)\\|`, 'm').exec(es);
      expect(row?.[1], status).toBeTruthy();
      expect(row?.[1], status).not.toBe(phrase);
      expect(en, status).toMatch(
        new RegExp(`^\\|\`${status}\`\\|${literal(phrase ?? '')}\\|`, 'm'),
      );
    }
  });
});

describe('error codes in responses', () => {
  test('link to their section of the errors page, in the page’s own locale', () => {
    expect(es).toContain(
      '|Error: [`UNKNOWN_PARAMETER`](https://docs.example.test/es/docs/errors#unknown_parameter), [`INVALID_PARAMETER`](https://docs.example.test/es/docs/errors#invalid_parameter)',
    );
    expect(en).toContain(
      '|Error: [`UNKNOWN_PARAMETER`](https://docs.example.test/en/docs/errors#unknown_parameter), [`INVALID_PARAMETER`](https://docs.example.test/en/docs/errors#invalid_parameter)',
    );
    expect(esHtml).toContain(
      '<a href="/es/docs/errors#item_not_found"><code>ITEM_NOT_FOUND</code></a>',
    );
  });

  test('a code the errors page has no section for stays plain text, never a broken link', () => {
    expect(es).toMatch(
      /\|Error: \[`ITEM_NOT_FOUND`\]\(https:\/\/docs\.example\.test\/es\/docs\/errors#item_not_found\), COSA_DESCONOCIDA\|/,
    );
    expect(esHtml).not.toContain('#cosa_desconocida');
  });
});

describe('a success body that is a named schema', () => {
  const doc = {
    ...FIXTURE,
    paths: {
      ...FIXTURE.paths,
      '/api/v1/cosa': {
        get: {
          summary: 'La cosa',
          responses: {
            '200': {
              description: 'Default Response',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Cosa' } } },
            },
          },
        },
      },
    },
  };
  const render = (repeatNamedBodies?: boolean) =>
    JSON.stringify(
      new OpenApiView(doc, {
        strings: STRINGS.en,
        apiUrl: 'http://api.test',
        ...(repeatNamedBodies === undefined ? {} : { repeatNamedBodies }),
      }).render(),
    );
  const fieldTables = (json: string) => json.split('"200 · Fields"').length - 1;

  test('has its fields under the endpoint too by default (the HTML page)', () => {
    // The inline body of /cosas/{id} and the named one of /cosa.
    expect(fieldTables(render())).toBe(2);
  });

  test('has them only under Schemas in the processed Markdown; inline bodies keep theirs', () => {
    const json = render(false);
    expect(fieldTables(json)).toBe(1);
    expect(json).toContain('"value":"Cosa"');
    expect(json.split('"value":"fecha"').length - 1).toBe(1);
    expect(render(true)).toBe(render());
  });
});

describe('an error code listed by several responses', () => {
  const doc = {
    openapi: '3.1.0',
    paths: Object.fromEntries(
      ['/a', '/b'].map((path) => [
        path,
        { get: { responses: { '400': { description: 'Error: UNKNOWN_PARAMETER, COSA' } } } },
      ]),
    ),
  };
  const render = (linkEveryError?: boolean) =>
    JSON.stringify(
      new OpenApiView(doc, {
        strings: STRINGS.en,
        apiUrl: 'http://api.test',
        errorAnchors: new Set(['unknown_parameter']),
        ...(linkEveryError === undefined ? {} : { linkEveryError }),
      }).render(),
    );
  const links = (json: string) => json.split('"url":"./errors#unknown_parameter"').length - 1;
  const inCode = (json: string) => json.split('"value":"UNKNOWN_PARAMETER"').length - 1;

  test('links to its section each time by default (the HTML page)', () => {
    expect(links(render())).toBe(2);
    expect(render(true)).toBe(render());
  });

  test('links the first time only in the processed Markdown, in code after that', () => {
    const json = render(false);
    expect(links(json)).toBe(1);
    expect(inCode(json)).toBe(2);
    // A code without a section stays plain text either way.
    expect(json.split('{"type":"text","value":"COSA"}').length - 1).toBe(2);
    // A second rendering starts over.
    const view = new OpenApiView(doc, {
      strings: STRINGS.en,
      apiUrl: 'http://api.test',
      errorAnchors: new Set(['unknown_parameter']),
      linkEveryError: false,
    });
    view.render();
    expect(links(JSON.stringify(view.render()))).toBe(1);
  });
});
