import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TrustProxy } from '../http/client-address.js';
import { createHost, type ErrorRepresentation, type ErrorTable } from '../http/host.js';
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
import { registerDownloads } from './downloads.js';
import { isLocale, LOCALES, type Locale } from './i18n.js';
import { negotiate, negotiateLocale } from './negotiate.js';
import { PAGE_SCRIPT_HASH } from './page-script.js';
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
  /** Hooks run before every other: tracing, when on (http/host.ts `instrument`). */
  instrument?: (app: FastifyInstance) => void;
}

/** What every route here takes: the Allow header where no route names a path (CONNECT, …). */
const ALLOW = ['GET', 'HEAD'];
/**
 * Longer than any URL Node accepts (its request line and headers share 16 KiB by default), so
 * an overlong page name reaches the page route and gets the 404 page like any unknown name.
 * Page names are only looked up in a Map; no pattern is matched against them.
 */
const MAX_PARAM_LENGTH = 16_384;
/**
 * HTML pages run one script: the page script written inline in each, allowed by its hash
 * (page-script.ts), which may fetch the search index from this host (`connect-src 'self'`).
 * No other script, no inline style, no plugin, no form, no frame.
 */
const HTML_CSP = `default-src 'none'; script-src ${PAGE_SCRIPT_HASH}; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
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
const ALWAYS_HEADERS = [
  ['x-content-type-options', 'nosniff'],
  // The strictest policy by default (redirects, 405s, plain-text errors); HTML pages and
  // resources set their own below.
  ['content-security-policy', OTHER_CSP],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  // Public, keyless content: any origin may read it (agents running in browsers, doc tools).
  ['access-control-allow-origin', '*'],
] as const;

/**
 * What the docs host answers besides its pages: an error page (HTML or Markdown as the Accept
 * header asks, in the locale of the address), or plain text.
 */
type DocsError = { page: ErrorPage; locale: Locale } | TextAnswer;

interface TextAnswer {
  status: number;
  text: string;
  allow?: string;
}

const TEXT_TYPE = 'text/plain; charset=utf-8';

/** `allowed`: what the route table says the path takes. */
function methodNotAllowed(method: string, allowed: readonly string[]): TextAnswer {
  const allow = allowed.join(', ');
  return {
    status: 405,
    text: `Method ${method} is not allowed here; the docs host answers ${allow}.\n`,
    allow,
  };
}

const INTERNAL_ERROR: TextAnswer = { status: 500, text: 'Internal error.\n' };

/** Which answer the docs host gives for what the host shell meets (http/host.ts). */
const DOCS_ERRORS: ErrorTable<DocsError> = {
  badUrl: (_request, path) => ({ page: 'badRequest', locale: localeOf(path) }),
  // An overlong name (beyond MAX_PARAM_LENGTH) is a name no page has.
  paramTooLong: (_request, path) => ({ page: 'notFound', locale: localeOf(path) }),
  // Refused before any body is read: a POST of malformed or oversized JSON is a 405 here, not
  // a 400 or 413 about a body no route would read, even where no page is. No preflight is
  // answered: every route is a GET that any origin may read without one.
  noRoute: (request, path, allowed) =>
    request.method !== 'GET' && request.method !== 'HEAD'
      ? methodNotAllowed(request.method, allowed.length > 0 ? allowed : ALLOW)
      : { page: 'notFound', locale: localeOf(path) },
  connect: (allowed) => methodNotAllowed('CONNECT', allowed),
  // Requests Node cannot parse (headers over 16 KiB, an unknown method, broken HTTP) never
  // reach a route: a plain-text answer, with the headers of every other answer here.
  unparsed: {
    headersTooLarge: () => ({
      status: 431,
      text: 'The request line and headers are larger than this host accepts (16 KiB in all).\n',
    }),
    malformed: () => ({
      status: 400,
      text: 'The request is not valid HTTP/1.1 and could not be read.\n',
    }),
  },
  unreadable: (_request, error) => ({
    status: error.statusCode as number,
    text: `${error.message}\n`,
  }),
  internal: {
    log: 'docs host error',
    answer: (_request, error) => {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      return { ...INTERNAL_ERROR, status: status >= 500 && status < 600 ? status : 500 };
    },
  },
  // The only other framework error is about async route constraints, which no route here has.
  frameworkFailure: { log: 'docs host error', answer: () => INTERNAL_ERROR },
};

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

  const answers: ErrorRepresentation<DocsError> = {
    send: (request, reply, error) => {
      if ('page' in error) return errorPage(request, reply, error.page, error.locale);
      if (error.allow !== undefined) reply.header('allow', error.allow);
      return reply.code(error.status).type(TEXT_TYPE).send(error.text);
    },
    raw: (error) =>
      'page' in error
        ? // Pages are answered on replies only; a socket gets the plain-text equivalent.
          { status: 500, headers: [], type: TEXT_TYPE, body: INTERNAL_ERROR.text }
        : {
            status: error.status,
            headers: error.allow === undefined ? [] : [['allow', error.allow]],
            type: TEXT_TYPE,
            body: error.text,
          },
  };

  const app = await createHost<DocsError>({
    logger: options.logger,
    ...(options.instrument ? { instrument: options.instrument } : {}),
    trustProxy: options.trustProxy ?? false,
    maxParamLength: MAX_PARAM_LENGTH,
    // As ever on this host: a request that arrives while it closes gets Fastify's own 503.
    refuseWhileClosing: true,
    headers: {
      // Nothing here is worth following a request through: Fastify's own numbering, in logs.
      requestIds: false,
      always: ALWAYS_HEADERS,
      onReplies: [['access-control-expose-headers', 'etag, link']],
    },
    representation: answers,
    errors: DOCS_ERRORS,
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
      // `.mdx` (the source's name) and `.md` serve the same Markdown.
      const extension = /\.mdx?$/.exec(page)?.[0] ?? '';
      const explicit = extension !== '';
      const slug = page.slice(0, page.length - extension.length);
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
  app.get<{ Params: { locale: string } }>('/:locale/llms-full.txt', async (request, reply) => {
    const { locale } = request.params;
    if (!isLocale(locale)) return notFound(request, reply);
    return send(request, reply, site.llmsFullOf[locale]);
  });
  app.get<{ Params: { locale: string } }>('/:locale/search-index.json', async (request, reply) => {
    const { locale } = request.params;
    if (!isLocale(locale)) return notFound(request, reply);
    return send(request, reply, site.searchIndex[locale]);
  });
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

  registerDownloads(app);

  return app;
}
