import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  clientAddressOf,
  resolveClientAddress,
  type TrustProxy,
  trustFunction,
  useClientAddress,
} from '../http/client-address.js';
import { answerConnect } from '../http/connect.js';
import {
  type ContentEncoding,
  chooseEncoding,
  compress,
  etagFor,
  matchesEtag,
  varyOnEncoding,
} from '../http/representation.js';
import { bindSite } from './bind-site.js';
import type { RenderedSite } from './built-site.js';
import { isLocale, LOCALES, type Locale } from './i18n.js';
import { negotiate, negotiateLocale } from './negotiate.js';
import { type ErrorPage, pageKey, pagePath, type Resource, type Site } from './resources.js';

export interface DocsAppOptions {
  /**
   * The rendered site: the build's (built-site.ts `builtSite()`), or one a test rendered. Its
   * placeholders are replaced by the two URLs below when the app is created.
   */
  site: RenderedSite;
  /** Public base URL of this host: absolute links in Markdown and llms files. */
  publicDocsUrl: string;
  /** Public base URL of the API, shown in the API reference and /openapi.json. */
  publicApiUrl: string;
  /** The process logger: one line per request, and errors. None when omitted. */
  logger?: FastifyBaseLogger | false;
  /** TRUST_PROXY: whose X-Forwarded-For names the client of a log line; no one by default. */
  trustProxy?: TrustProxy;
}

const ALLOW = 'GET, HEAD';
/**
 * Longer than any URL Node accepts (its request line and headers share 16 KiB by default), so
 * an overlong page name reaches the page route and gets the 404 page like any unknown name.
 * Page names are only looked up in a Map; no pattern is matched against them.
 */
const MAX_PARAM_LENGTH = 16_384;
const HTML_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const OTHER_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The compressed bodies of a resource, made on first request and kept with it (a resource is
 * rendered once, so each encoding is compressed once, at the highest effort).
 */
const encodedBodies = new WeakMap<Resource, Map<ContentEncoding, Promise<Buffer>>>();

function encodedBody(resource: Resource, encoding: 'br' | 'gzip'): Promise<Buffer> {
  let bodies = encodedBodies.get(resource);
  if (!bodies) {
    bodies = new Map();
    encodedBodies.set(resource, bodies);
  }
  let body = bodies.get(encoding);
  if (!body) {
    body = compress(resource.body, encoding, 'small');
    bodies.set(encoding, body);
  }
  return body;
}

/** Headers of every answer, including those Fastify makes before routing (bad URLs). */
function commonHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  // The strictest policy by default (redirects, 405s, plain-text errors); HTML pages and
  // resources set their own below.
  reply.header('content-security-policy', OTHER_CSP);
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  // Public, keyless content: any origin may read it (agents running in browsers, doc tools).
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', 'etag, link');
}

/** One line per request, like the API's: no URL (a query string may hold anything), no headers. */
function logRequest(request: FastifyRequest, status: number, durationMs: number): void {
  request.log.info(
    {
      method: request.method,
      route: request.routeOptions?.url ?? null,
      status,
      durationMs: Math.round(durationMs * 100) / 100,
      requestId: request.id,
      clientAddress: clientAddressOf(request),
    },
    'request',
  );
}

/** The locale an address names (`/es/…`), for the language of an error page. */
function localeOf(url: string): Locale {
  const first = url.split(/[/?#]/)[1] ?? '';
  return isLocale(first) ? first : 'en';
}

function link(target: string, params: string): string {
  return `<${target}>; ${params}`;
}

/** A resource in the encoding the client prefers, with its own strong ETag (representation.ts). */
async function send(
  request: FastifyRequest,
  reply: FastifyReply,
  resource: Resource,
): Promise<FastifyReply> {
  const encoding = chooseEncoding(request.headers['accept-encoding'], resource.body.length);
  reply.header('etag', etagFor(resource.etag, encoding));
  reply.header('vary', varyOnEncoding(reply.getHeader('vary')));
  reply.header('cache-control', 'public, no-cache');
  reply.header(
    'content-security-policy',
    resource.type.startsWith('text/html') ? HTML_CSP : OTHER_CSP,
  );
  if (matchesEtag(request.headers['if-none-match'], resource.etag)) return reply.code(304).send();
  reply.type(resource.type);
  if (encoding === 'identity') return reply.send(resource.body);
  reply.header('content-encoding', encoding);
  return reply.send(await encodedBody(resource, encoding));
}

function pageLinks(
  locale: Locale,
  slug: string,
  slugs: Site['slugs'],
  representation: 'html' | 'markdown',
): string {
  const path = pagePath(locale, slug);
  const links =
    representation === 'html'
      ? [link(`${path}.mdx`, 'rel="alternate"; type="text/markdown"')]
      : [link(path, 'rel="canonical"'), link(path, 'rel="alternate"; type="text/html"')];
  for (const other of LOCALES) {
    if (other !== locale && slugs[other].has(slug)) {
      links.push(link(pagePath(other, slug), `rel="alternate"; hreflang="${other}"`));
    }
  }
  links.push(link('/llms.txt', 'rel="describedby"; type="text/plain"'));
  return links.join(', ');
}

/**
 * The documentation host (not listening yet). It serves the site rendered at build time
 * (build/), from memory: nothing here parses a page or touches the docs folder.
 */
export async function createDocsApp(options: DocsAppOptions): Promise<FastifyInstance> {
  const site: Site = bindSite(options.site, {
    publicDocsUrl: trimSlash(options.publicDocsUrl),
    publicApiUrl: trimSlash(options.publicApiUrl),
  });

  /**
   * The docs host's own error pages, HTML or Markdown as the Accept header asks. Rendered once
   * like every page, with a strong ETag; as errors they are always sent in full (RFC 9110
   * 13.2.1: preconditions apply to 2xx answers only) and never stored.
   */
  const errorPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    page: ErrorPage,
    locale: Locale = 'en',
  ) => {
    const representation = negotiate(request.headers.accept);
    const resource = site.errors[locale][page][representation];
    reply.header('vary', 'Accept').header('cache-control', 'no-store');
    reply.header('etag', resource.etag);
    reply.header('content-security-policy', representation === 'html' ? HTML_CSP : OTHER_CSP);
    return reply
      .code(page === 'notFound' ? 404 : 400)
      .type(resource.type)
      .send(resource.body);
  };
  const notFound = (request: FastifyRequest, reply: FastifyReply, locale: Locale = 'en') =>
    errorPage(request, reply, 'notFound', locale);

  const trust = trustFunction(options.trustProxy ?? false);
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // One line per request comes from our onResponse hook, with the fields we choose.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trust,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    // Node's default, explicit (as on the API host): request line and headers, 16 KiB in all.
    http: { maxHeaderSize: 16_384 },
    // What Fastify answers itself before routing (JSON of its own) gets the docs host's pages:
    // a malformed percent-encoding is a 400, an overlong name (beyond MAX_PARAM_LENGTH) a 404.
    // No hook runs for these requests, so the headers and the log line are added here.
    // Requests Node cannot parse (headers over 16 KiB, an unknown method, broken HTTP) never
    // reach a route: a plain-text answer, with the headers of every other answer here.
    clientErrorHandler: (failure, socket: Socket) => {
      const error = failure as unknown as Error & { code?: string; rawPacket?: Buffer };
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (!socket.writable) {
        socket.destroy(error);
        return;
      }
      const overflow = error.code === 'HPE_HEADER_OVERFLOW';
      const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : overflow ? 431 : 400;
      const body =
        status === 408
          ? ''
          : overflow
            ? 'The request line and headers are larger than this host accepts (16 KiB in all).\n'
            : 'The request is not valid HTTP/1.1 and could not be read.\n';
      const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
      app.log.info(
        {
          method: null,
          route: null,
          status,
          reason: error.code,
          clientAddress: socket.remoteAddress ?? '',
        },
        'request',
      );
      socket.end(
        [
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
          'Connection: close',
          'x-content-type-options: nosniff',
          `content-security-policy: ${OTHER_CSP}`,
          'referrer-policy: strict-origin-when-cross-origin',
          'access-control-allow-origin: *',
          ...(body === '' ? [] : ['content-type: text/plain; charset=utf-8']),
          `content-length: ${Buffer.byteLength(body)}`,
          '',
          head ? '' : body,
        ].join('\r\n'),
      );
    },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const started = performance.now();
      reply.raw.once('finish', () =>
        logRequest(request, reply.statusCode, performance.now() - started),
      );
      commonHeaders(reply);
      const locale = localeOf(request.raw.url ?? '/');
      if (error.code === 'FST_ERR_BAD_URL') return errorPage(request, reply, 'badRequest', locale);
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return notFound(request, reply, locale);
      // The only other one is about async route constraints, which no route here has.
      request.log.error({ err: error }, 'docs host error');
      return reply.code(500).type('text/plain; charset=utf-8').send('Internal error.\n');
    },
  });

  const methodNotAllowed = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', ALLOW)
      .type('text/plain; charset=utf-8')
      .send(`Method ${request.method} is not allowed here; the docs host answers ${ALLOW}.\n`);

  useClientAddress(app, trust);

  app.addHook('onRequest', (request, reply, done) => {
    commonHeaders(reply);
    // Refused before any body is read: a POST of malformed or oversized JSON is a 405 here, not
    // a 400 or 413 about a body no route would read. (Replying ends the request: no done().)
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      methodNotAllowed(request, reply);
      return;
    }
    done();
  });

  // CONNECT never reaches Fastify (http/connect.ts): the same 405 as any other refused method.
  answerConnect(app.server, (request) => {
    app.log.info(
      {
        method: 'CONNECT',
        route: null,
        status: 405,
        clientAddress: resolveClientAddress(request, trust),
      },
      'request',
    );
    return {
      status: 405,
      headers: [
        ['allow', ALLOW],
        ['x-content-type-options', 'nosniff'],
        ['content-security-policy', OTHER_CSP],
        ['referrer-policy', 'strict-origin-when-cross-origin'],
        ['access-control-allow-origin', '*'],
        ['content-type', 'text/plain; charset=utf-8'],
      ],
      body: `Method CONNECT is not allowed here; the docs host answers ${ALLOW}.\n`,
    };
  });

  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply.statusCode, reply.elapsedTime);
    done();
  });

  app.get('/', async (request, reply) => {
    const locale = negotiateLocale(request.headers['accept-language'], LOCALES);
    return reply.header('vary', 'Accept-Language').redirect(pagePath(locale, 'introduction'), 302);
  });

  for (const path of ['/:locale', '/:locale/docs', '/:locale/docs/']) {
    app.get<{ Params: { locale: string } }>(path, async (request, reply) => {
      const { locale } = request.params;
      if (!isLocale(locale)) return notFound(request, reply);
      return reply.redirect(pagePath(locale, 'introduction'), 302);
    });
  }

  app.get<{ Params: { locale: string; page: string } }>(
    '/:locale/docs/:page',
    async (request, reply) => {
      const { locale, page } = request.params;
      if (!isLocale(locale)) return notFound(request, reply);
      // Pages are looked up in memory by slug; nothing here touches the filesystem, so no path
      // (`..`, encoded slashes, …) can reach outside the docs folder.
      const explicit = page.endsWith('.mdx');
      const slug = explicit ? page.slice(0, -'.mdx'.length) : page;
      if (!site.slugs[locale].has(slug)) return notFound(request, reply, locale);
      const representation = explicit ? 'markdown' : negotiate(request.headers.accept);
      if (!explicit) reply.header('vary', 'Accept');
      reply.header('link', pageLinks(locale, slug, site.slugs, representation));
      const map = representation === 'markdown' ? site.markdown : site.html;
      const resource = map.get(pageKey(locale, slug));
      if (!resource) return notFound(request, reply, locale);
      return send(request, reply, resource);
    },
  );

  app.get('/llms.txt', async (request, reply) => send(request, reply, site.llms));
  app.get('/llms-full.txt', async (request, reply) => send(request, reply, site.llmsFull));
  app.get('/assets/docs.css', async (request, reply) => send(request, reply, site.stylesheet));
  app.get('/openapi.json', async (request, reply) => {
    // A site is built with the document; only a test renders one without.
    if (site.openapi) return send(request, reply, site.openapi);
    return reply
      .code(503)
      .header('retry-after', '1')
      .type('application/json; charset=utf-8')
      .send({
        error: {
          code: 'SERVICE_UNAVAILABLE',
          message: 'The OpenAPI document is not available yet; retry in a moment.',
        },
      });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return methodNotAllowed(request, reply);
    }
    return notFound(request, reply, localeOf(request.url));
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'docs host error');
    return reply
      .code(status >= 400 && status < 600 ? status : 500)
      .type('text/plain; charset=utf-8')
      .send(status < 500 ? `${error.message}\n` : 'Internal error.\n');
  });

  return app;
}
