import type { Locale } from '../i18n.js';

/**
 * The texts of the API's OpenAPI document (summaries and descriptions of operations,
 * parameters, responses, schemas and fields) in the other languages of the docs, keyed by the
 * English text the API's schemas give. `/openapi.json` stays in English; the reference page of
 * each language reads its own. Keyed by the text itself, so an English description that changes
 * has no translation until this table follows it: `openapi-texts.test.ts` lists every text the
 * Spanish reference renders without one, and every entry no longer used.
 */
export const OPENAPI_TEXTS: Readonly<
  Record<Exclude<Locale, 'en'>, Readonly<Record<string, string>>>
> = {
  es: {
    // GET /api/v1/health
    'Service health': 'Estado del servicio',
    'Needs no key (a supplied key is ignored). 200 with `ok` or `degraded` (an optional dependency is down); 503 with `unavailable` when the database is down.':
      'No necesita clave (si se envía una, se ignora). 200 con `ok` o `degraded` (una dependencia opcional no responde); 503 con `unavailable` cuando la base de datos no responde.',
    'One entry per dependency: "ok", "down", …': 'Una entrada por dependencia: "ok", "down", …',

    // GET /api/v1/auth/verify
    'Verify an API key': 'Verificar una clave de API',
    'Describes the key the request was made with. Counts toward the rate limit, spends no quota, and reports the uses left now. Never returns the secret or its hash.':
      'Describe la clave con la que se hizo la petición. Cuenta para el límite de peticiones, no gasta cuota e informa de los usos que quedan ahora. Nunca devuelve el secreto ni su hash.',
    'Type prefix and first 4 random characters; safe to show.':
      'Prefijo del tipo y los 4 primeros caracteres aleatorios; se pueden mostrar sin riesgo.',
    'What this key may see (key views): items matching every `where` filter, without the `hideFields`, quantities capped at `quantityCap`; null when it sees every item whole.':
      'Lo que esta clave puede ver (vistas de clave): los artículos que cumplen todos los filtros de `where`, sin los `hideFields`, con las cantidades limitadas a `quantityCap`; null cuando ve todos los artículos enteros.',
    'Filters that must all hold: `status=A[,B…]`, `location=CODE` (more than 0 there), `customFields.NAME=VALUE`.':
      'Filtros que deben cumplirse todos: `status=A[,B…]`, `location=CÓDIGO` (más de 0 allí), `customFields.NOMBRE=VALOR`.',
    'Item fields (or `customFields.NAME`) left out of every answer.':
      'Campos del artículo (o `customFields.NOMBRE`) que se omiten en todas las respuestas.',
    'Every quantity (item and stock) is served as at most this.':
      'Toda cantidad (del artículo y de sus existencias) se sirve como mucho con este valor.',

    // GET /api/v1/organization
    'The key’s organization': 'La organización de la clave',
    'The organization the key belongs to: id, name, slug, enabled features and creation time. Needs a key, no permission.':
      'La organización a la que pertenece la clave: id, nombre, slug, funcionalidades activadas y fecha de creación. Necesita una clave, ningún permiso.',
    'Legacy override. By default the key’s organization is used; naming another organization answers 403. Responses carry `Deprecation: true`.':
      'Sustitución heredada. Por defecto se usa la organización de la clave; nombrar otra organización responde 403. Las respuestas llevan `Deprecation: true`.',

    // GET /api/v1/inventory/items
    'List inventory items': 'Listar artículos de inventario',
    'Items of the key’s organization in creation order (`_id` ascending), filtered by `search`, `status`, `location` or the exact `sku`, `barcode` and `ids`, narrowed by `fields`, one page at a time: pass `nextCursor` back as `cursor` until it is null. With `updatedSince`, an incremental sync instead: the items changed since then in change order, deletions too with `includeDeleted=true`, and `nextSince` to continue from next time. Every page carries a strong `ETag` (one per content encoding; `If-None-Match` answers 304) and is compressed with brotli or gzip when `Accept-Encoding` allows. Needs `inventory:view` and the `inventory` feature.':
      'Los artículos de la organización de la clave en orden de creación (`_id` ascendente), filtrados por `search`, `status`, `location` o los valores exactos de `sku`, `barcode` e `ids`, reducidos a los campos de `fields`, una página cada vez: devuelve `nextCursor` como `cursor` hasta que sea null. Con `updatedSince`, en cambio, una sincronización incremental: los artículos cambiados desde entonces en orden de cambio, también los borrados con `includeDeleted=true`, y `nextSince` para continuar la próxima vez. Cada página lleva un `ETag` fuerte (uno por codificación de contenido; `If-None-Match` responde 304) y se comprime con brotli o gzip cuando `Accept-Encoding` lo permite. Necesita `inventory:view` y la funcionalidad `inventory`.',
    'Maximum number of items in the page: a positive integer. Default 100; values above 1000 are served as 1000.':
      'Número máximo de artículos de la página: un entero positivo. 100 por defecto; los valores por encima de 1000 se sirven como 1000.',
    'Case-insensitive substring match against name, description, sku and barcode (1–200 characters; Unicode simple case folding; accents significant; %, _ and \\ are literal).':
      'Coincidencia de subcadena sin distinguir mayúsculas en name, description, sku y barcode (1–200 caracteres; plegado simple de mayúsculas de Unicode; los acentos cuentan; %, _ y \\ son literales).',
    'Only items with this status (exact case).':
      'Solo los artículos con este estado (mayúsculas exactas).',
    'Comma-separated item fields to return; each item then carries only these, in the usual order. Allowed: _id, organizationId, name, description, sku, barcode, status, quantity, stock, customFields, createdAt, updatedAt.':
      'Campos del artículo que se devuelven, separados por comas; cada artículo lleva entonces solo esos, en el orden habitual. Permitidos: _id, organizationId, name, description, sku, barcode, status, quantity, stock, customFields, createdAt, updatedAt.',
    'Opaque token from the `nextCursor` of the previous page; send the same filters with it (search, status, sku, barcode, ids, location, updatedSince, includeDeleted).':
      'Token opaco del `nextCursor` de la página anterior; envía con él los mismos filtros (search, status, sku, barcode, ids, location, updatedSince, includeDeleted).',
    'Only the item with exactly this SKU (case-sensitive, as stored; indexed). Cannot be combined with `search` or `updatedSince`.':
      'Solo el artículo con exactamente este SKU (distingue mayúsculas, tal como está guardado; indexado). No se puede combinar con `search` ni con `updatedSince`.',
    'Only items with exactly this barcode (case-sensitive, as stored; indexed). Cannot be combined with `search` or `updatedSince`.':
      'Solo los artículos con exactamente este código de barras (distingue mayúsculas, tal como está guardado; indexado). No se puede combinar con `search` ni con `updatedSince`.',
    'Only the items with these `_id`s: up to 100 comma-separated 24-character hex ids, in `_id` order; unknown ids (and other organizations’ items) are simply absent. Cannot be combined with `search` or `updatedSince`.':
      'Solo los artículos con estos `_id`: hasta 100 ids hexadecimales de 24 caracteres separados por comas, en orden de `_id`; los ids desconocidos (y los artículos de otras organizaciones) simplemente no aparecen. No se puede combinar con `search` ni con `updatedSince`.',
    'Only items with more than 0 at the location of this code (case-sensitive; see `GET /api/v1/inventory/locations`). Combines with every other parameter. An unknown code answers 400 `INVALID_PARAMETER`.':
      'Solo los artículos con más de 0 en la ubicación de este código (distingue mayúsculas; consulta `GET /api/v1/inventory/locations`). Se combina con todos los demás parámetros. Un código desconocido responde 400 `INVALID_PARAMETER`.',
    'Incremental sync: only items changed after this point, in change order (not `_id` order), and the response carries `nextSince`. Either an ISO 8601 instant with a time zone (`2026-11-24T08:00:00Z`, `2026-11-24T09:00:00+01:00`) or a date (`2026-11-24`, midnight UTC), or the `nextSince` of an earlier response to continue from where it ended. An item may repeat across syncs; none is ever missed. Combines with `status`, `location`, `fields`, `limit`, `cursor` and `includeDeleted`.':
      'Sincronización incremental: solo los artículos cambiados después de este punto, en orden de cambio (no en orden de `_id`), y la respuesta lleva `nextSince`. Un instante ISO 8601 con zona horaria (`2026-11-24T08:00:00Z`, `2026-11-24T09:00:00+01:00`), una fecha (`2026-11-24`, medianoche UTC) o el `nextSince` de una respuesta anterior para continuar donde terminó. Un artículo puede repetirse entre sincronizaciones; ninguno se pierde nunca. Se combina con `status`, `location`, `fields`, `limit`, `cursor` e `includeDeleted`.',
    'With `updatedSince`: also list the items deleted since then, as `deleted: [{ _id, deletedAt }]` (kept for the retention period, 30 days by default; an older sync point answers 410 `SYNC_EXPIRED`).':
      'Con `updatedSince`: lista también los artículos borrados desde entonces, como `deleted: [{ _id, deletedAt }]` (se guardan durante el periodo de retención, 30 días por defecto; un punto de sincronización más antiguo responde 410 `SYNC_EXPIRED`).',
    'Number of items in `data`.': 'Número de artículos en `data`.',
    'Pass as `cursor` for the next page; null on the last page. A `search` of 3+ characters always returns full pages. One of 1–2 characters examines at most 10,000 items after the cursor (with the `status` filter) per request: when they hold fewer than `limit` matches the page is short (even empty) and `nextCursor` continues after the last item examined, so follow it until it is null. Likewise a sync (`updatedSince`) with `status`, `location` or a key view that filters items examines at most 10,000 changes per request: its page may be short (even empty) with a `nextCursor` all the same.':
      'Pásalo como `cursor` para la página siguiente; null en la última página. Un `search` de 3 o más caracteres siempre devuelve páginas completas. Uno de 1–2 caracteres examina como mucho 10.000 artículos después del cursor (con el filtro `status`) por petición: cuando contienen menos de `limit` coincidencias la página sale corta (incluso vacía) y `nextCursor` continúa después del último artículo examinado, así que síguelo hasta que sea null. Del mismo modo, una sincronización (`updatedSince`) con `status`, `location` o una vista de clave que filtra artículos examina como mucho 10.000 cambios por petición: su página puede salir corta (incluso vacía) y traer `nextCursor` igualmente.',
    'Only with `updatedSince`: where this sync ended. Keep it and pass it as `updatedSince` next time to get only what changed since (on the last page it covers every change so far; on any other page, the changes up to the last one it examined).':
      'Solo con `updatedSince`: dónde terminó esta sincronización. Guárdalo y pásalo como `updatedSince` la próxima vez para recibir solo lo que cambió desde entonces (en la última página cubre todos los cambios hasta ahora; en cualquier otra, los cambios hasta el último que examinó).',
    'Only with `updatedSince` and `includeDeleted=true`: items deleted since then, in change order. They count toward `limit` but not toward `count`.':
      'Solo con `updatedSince` e `includeDeleted=true`: los artículos borrados desde entonces, en orden de cambio. Cuentan para `limit` pero no para `count`.',
    'Not Modified: `If-None-Match` names the current `ETag` (or, on item detail, `If-Modified-Since` is not older than `Last-Modified`). No body; charged like any other request.':
      'No modificado: `If-None-Match` nombra el `ETag` actual (o, en el detalle de un artículo, `If-Modified-Since` no es anterior a `Last-Modified`). Sin cuerpo; se cobra como cualquier otra petición.',

    // GET /api/v1/inventory/item
    'Get one inventory item': 'Obtener un artículo de inventario',
    'One item of the key’s organization by `_id`. Another organization’s item answers 404 like an unknown one. Carries a strong `ETag` and `Last-Modified`; `If-None-Match` or `If-Modified-Since` answer 304 when it has not changed. Needs `inventory:view` and the `inventory` feature.':
      'Un artículo de la organización de la clave por su `_id`. El artículo de otra organización responde 404, como uno desconocido. Lleva un `ETag` fuerte y `Last-Modified`; `If-None-Match` o `If-Modified-Since` responden 304 cuando no ha cambiado. Necesita `inventory:view` y la funcionalidad `inventory`.',
    'The item’s `_id` (24-character hex).': 'El `_id` del artículo (hexadecimal de 24 caracteres).',

    // GET /api/v1/inventory/locations
    'List locations': 'Listar ubicaciones',
    'The locations of the key’s organization, ordered by code: the codes items’ `stock` entries and the `location` filter name. Carries a strong `ETag` (`If-None-Match` answers 304). Needs `inventory:view` and the `inventory` feature.':
      'Las ubicaciones de la organización de la clave, ordenadas por código: los códigos que nombran las entradas de `stock` de los artículos y el filtro `location`. Lleva un `ETag` fuerte (`If-None-Match` responde 304). Necesita `inventory:view` y la funcionalidad `inventory`.',
    'Number of locations in `data`.': 'Número de ubicaciones en `data`.',

    // GET /livez, GET /readyz
    'Liveness probe': 'Sonda de vida',
    'Needs no key. 200 while the process serves, whatever the state of its dependencies (restart the process only when this fails). Never rate limited.':
      'No necesita clave. 200 mientras el proceso sirve, esté como esté el estado de sus dependencias (reinicia el proceso solo cuando esto falle). Nunca está sujeta al límite de peticiones.',
    'Readiness probe': 'Sonda de disponibilidad',
    'Needs no key. 200 when this process should receive traffic: the database answers within one second and the process is not shutting down. A configured Redis is reported in `checks` (and `status` is `degraded` when it does not answer) but does not fail readiness: each instance then serves on its local fallback rate limiter. 503 `SERVICE_UNAVAILABLE` naming what is not ready (the database, or the process is shutting down: it answers 503 from the moment it receives SIGTERM or SIGINT). Never rate limited.':
      'No necesita clave. 200 cuando este proceso debe recibir tráfico: la base de datos responde en menos de un segundo y el proceso no se está cerrando. Un Redis configurado aparece en `checks` (y `status` es `degraded` cuando no responde), pero no impide estar disponible: cada instancia sirve entonces con su limitador de peticiones local de respaldo. 503 `SERVICE_UNAVAILABLE` nombrando lo que no está listo (la base de datos, o el proceso se está cerrando: responde 503 desde el momento en que recibe SIGTERM o SIGINT). Nunca está sujeta al límite de peticiones.',
    '`degraded` when Redis is configured and does not answer: still ready.':
      '`degraded` cuando Redis está configurado y no responde: sigue disponible.',
    'What was checked: the database (always `ok` in a 200), and Redis when it is configured (`ok`, `down`, or `timeout` when it did not answer within one second).':
      'Lo que se comprobó: la base de datos (siempre `ok` en un 200), y Redis cuando está configurado (`ok`, `down`, o `timeout` cuando no respondió en menos de un segundo).',

    // Schemas
    'An inventory item. Every field is present unless the `fields` parameter selects a subset.':
      'Un artículo de inventario. Todos los campos están presentes salvo que el parámetro `fields` elija una parte.',
    'With stock rows, the sum of their quantities; without, the item’s own.':
      'Con filas de existencias, la suma de sus cantidades; sin ellas, la del propio artículo.',
    'The item’s stock per location: one entry per location it has a stock row at (quantity may be 0), ordered by code; empty when it has none.':
      'Las existencias del artículo por ubicación: una entrada por cada ubicación en la que tiene una fila de existencias (la cantidad puede ser 0), ordenadas por código; vacía cuando no tiene ninguna.',
    'Free-form JSON object, returned as stored (key order kept).':
      'Objeto JSON libre, devuelto tal como se guardó (con el orden de sus claves).',
    'ISO 8601 UTC with milliseconds': 'ISO 8601 UTC con milisegundos',
    'A place where the organization keeps stock (a warehouse, a shop floor…).':
      'Un lugar donde la organización tiene existencias (un almacén, una tienda…).',
    'Unique in the organization, case-sensitive; what `stock` and `location=` name.':
      'Único en la organización, distingue mayúsculas; lo que nombran `stock` y `location=`.',
    'What was wrong and how to fix it.': 'Qué estaba mal y cómo corregirlo.',
    'The query parameter at fault.': 'El parámetro de consulta causante del error.',
  },
};

/** How the reference page of `locale` renders a text of the document: English as given. */
export function openapiTranslator(locale: Locale): (english: string) => string {
  if (locale === 'en') return (english) => english;
  const table = OPENAPI_TEXTS[locale];
  // A text without a translation is shown as the API wrote it (the test lists it).
  return (english) => (Object.hasOwn(table, english) ? (table[english] ?? english) : english);
}
