import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { loadPages, type Pages } from './content.js';
import { isLocale, LOCALES, type Locale, STRINGS } from './i18n.js';
import { pagePath, renderLayout } from './layout.js';
import { negotiate, negotiateLocale } from './negotiate.js';
import {
  buildSite,
  HTML_TYPE,
  MARKDOWN_TYPE,
  navigation,
  pageKey,
  type Resource,
  type Site,
} from './site.js';

export interface DocsAppOptions {
  /** The folder holding `en/*.mdx` and `es/*.mdx`. */
  docsDir: string;
  /** Public base URL of this host, no trailing slash: absolute links in Markdown and llms files. */
  publicDocsUrl: string;
  /** Public base URL of the API, shown in the API reference. */
  publicApiUrl: string;
  /**
   * The API's OpenAPI document. Called on the first request that needs it (not at creation),
   * so the API app must be ready by the time the docs host takes traffic.
   */
  openapi: () => unknown;
  logger?: boolean | object;
}

const ALLOW = 'GET, HEAD';
const HTML_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const OTHER_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function link(target: string, params: string): string {
  return `<${target}>; ${params}`;
}

function send(request: FastifyRequest, reply: FastifyReply, resource: Resource): FastifyReply {
  reply.header('etag', resource.etag);
  reply.header('cache-control', 'public, no-cache');
  reply.header(
    'content-security-policy',
    resource.type.startsWith('text/html') ? HTML_CSP : OTHER_CSP,
  );
  if (matchesEtag(request.headers['if-none-match'], resource.etag)) return reply.code(304).send();
  return reply.type(resource.type).send(resource.body);
}

function pageLinks(
  locale: Locale,
  slug: string,
  pages: Pages,
  representation: 'html' | 'markdown',
): string {
  const path = pagePath(locale, slug);
  const links =
    representation === 'html'
      ? [link(`${path}.mdx`, 'rel="alternate"; type="text/markdown"')]
      : [link(path, 'rel="canonical"'), link(path, 'rel="alternate"; type="text/html"')];
  for (const other of LOCALES) {
    if (other !== locale && pages[other].has(slug)) {
      links.push(link(pagePath(other, slug), `rel="alternate"; hreflang="${other}"`));
    }
  }
  links.push(link('/llms.txt', 'rel="describedby"; type="text/plain"'));
  return links.join(', ');
}

/**
 * The documentation host (not listening yet). Every page is read, parsed, cross-checked and
 * rendered here, so an invalid page makes this reject with a message naming its file.
 */
export async function createDocsApp(options: DocsAppOptions): Promise<FastifyInstance> {
  const settings = {
    publicDocsUrl: trimSlash(options.publicDocsUrl),
    publicApiUrl: trimSlash(options.publicApiUrl),
  };
  const pages = await loadPages(options.docsDir);
  // Rendered now without the OpenAPI document so a page that cannot render fails at start;
  // the API app may not be ready yet, so the document itself is read on first use.
  let site: Site = buildSite(pages, settings, undefined);
  let complete = false;

  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  });

  const current = (request: FastifyRequest): Site => {
    if (complete) return site;
    let doc: unknown;
    try {
      doc = options.openapi();
    } catch (error) {
      request.log.error({ err: error }, 'the OpenAPI document is not available');
      return site;
    }
    site = buildSite(pages, settings, doc, site);
    complete = true;
    return site;
  };

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    // Public, keyless content: any origin may read it (agents running in browsers, doc tools).
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'etag, link');
  });

  const notFound = (request: FastifyRequest, reply: FastifyReply, locale: Locale = 'en') => {
    reply.header('vary', 'Accept').code(404).header('cache-control', 'no-store');
    const strings = STRINGS[locale];
    const home = pagePath(locale, 'introduction');
    if (negotiate(request.headers.accept) === 'markdown') {
      return reply
        .type(MARKDOWN_TYPE)
        .send(
          `# ${strings.notFoundTitle}\n\n${strings.notFoundText} ${settings.publicDocsUrl}/llms.txt\n`,
        );
    }
    reply.header('content-security-policy', HTML_CSP);
    // The layout already shows the description as the lead paragraph under the title.
    const body = `<p><a href="${home}">${strings.backToIntroduction}</a></p>`;
    return reply.type(HTML_TYPE).send(
      renderLayout({
        locale,
        slug: null,
        title: strings.notFoundTitle,
        description: strings.notFoundText,
        body,
        toc: [],
        nav: navigation(pages, locale),
        twins: { en: false, es: false },
        publicDocsUrl: settings.publicDocsUrl,
      }),
    );
  };

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
      const state = current(request);
      if (!state.pages[locale].has(slug)) return notFound(request, reply, locale);
      const representation = explicit ? 'markdown' : negotiate(request.headers.accept);
      if (!explicit) reply.header('vary', 'Accept');
      reply.header('link', pageLinks(locale, slug, state.pages, representation));
      const map = representation === 'markdown' ? state.markdown : state.html;
      const resource = map.get(pageKey(locale, slug));
      if (!resource) return notFound(request, reply, locale);
      return send(request, reply, resource);
    },
  );

  app.get('/llms.txt', async (request, reply) => send(request, reply, current(request).llms));
  app.get('/llms-full.txt', async (request, reply) =>
    send(request, reply, current(request).llmsFull),
  );
  app.get('/assets/docs.css', async (request, reply) =>
    send(request, reply, current(request).stylesheet),
  );
  app.get('/openapi.json', async (request, reply) => {
    const doc = current(request).openapi;
    if (doc) return send(request, reply, doc);
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
      return reply
        .code(405)
        .header('allow', ALLOW)
        .type('text/plain; charset=utf-8')
        .send(`Method ${request.method} is not allowed here; the docs host answers ${ALLOW}.\n`);
    }
    const first = request.url.split('/')[1] ?? '';
    return notFound(request, reply, isLocale(first) ? first : 'en');
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
