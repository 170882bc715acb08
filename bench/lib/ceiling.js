// The machine's ceiling: a bare node:http server in its own process answering each benchmark
// path with the bytes the real server sent for it (status, content type, body), without
// authentication, database or framework. Usage: node ceiling.js ROUTES_FILE PORT
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [file, port] = process.argv.slice(2);
const routes = new Map();
for (const [path, route] of Object.entries(JSON.parse(readFileSync(file, 'utf8')))) {
  const body = Buffer.from(route.body, 'base64');
  routes.set(path, {
    status: route.status,
    headers: { 'content-type': route.contentType, 'content-length': String(body.length) },
    body,
  });
}
const notFound = Buffer.from('not a benchmark path\n');

http
  .createServer((request, response) => {
    const route = routes.get(request.url);
    if (!route) {
      response.writeHead(404, { 'content-length': String(notFound.length) });
      response.end(notFound);
      return;
    }
    response.writeHead(route.status, route.headers);
    response.end(route.body);
  })
  .listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
