/**
 * Recognizes the most common misconfiguration: a `baseUrl` that points at Stockroom's
 * documentation host (DOCS_PORT, 3001 by default) instead of the API (PORT, 3000) or the admin
 * API (ADMIN_PORT, 3002). The docs host answers every `/api/v1/…` or `/admin/v1/…` address with
 * its "Page not found" page, HTML or Markdown, where the API would answer JSON; the error then
 * says which URL to use instead of a bare "HTTP 404".
 */

export type ExpectedHost = 'api' | 'admin';

const DEFAULT_PORTS: Record<ExpectedHost, { variable: string; port: number }> = {
  api: { variable: 'PORT', port: 3000 },
  admin: { variable: 'ADMIN_PORT', port: 3002 },
};
const DOCS_DEFAULT_PORT = 3001;

/** A page for people or for LLMs rather than an API answer: what the docs host serves. */
function isDocument(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'text/html' || type === 'text/markdown' || type === 'application/xhtml+xml';
}

/**
 * The sentence to add to the error of an answer that looks like the docs host's, or null.
 * It looks like the docs host when the API's address answers 404 with a document (HTML or
 * Markdown) instead of Stockroom's JSON error; any host serving web pages there gets the hint,
 * which names what to check either way.
 */
export function wrongHostHint(
  answer: { status: number; headers: Headers; text: string },
  baseUrl: string,
  expected: ExpectedHost,
): string | null {
  if (answer.status !== 404 || !isDocument(answer.headers.get('content-type'))) return null;
  const { variable, port } = DEFAULT_PORTS[expected];
  const name = expected === 'api' ? 'API' : 'admin API';
  const url = new URL(baseUrl);
  let suggestion = '';
  if (url.port === String(DOCS_DEFAULT_PORT)) {
    url.port = String(port);
    suggestion = `, e.g. ${url.origin}`;
  }
  const docs = /Stockroom docs|llms\.txt/.test(answer.text)
    ? 'this looks like the documentation host'
    : 'this looks like the documentation host or another web server';
  return `${baseUrl} answered with a web page, not the ${name}: ${docs}; use the ${name} URL as baseUrl (port ${variable}, ${port} by default${suggestion}), not the docs URL (DOCS_PORT, ${DOCS_DEFAULT_PORT} by default).`;
}
