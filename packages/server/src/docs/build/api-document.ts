import { createApiApp } from '../../api/app.js';
import { loadConfig } from '../../config.js';
import { createServices } from '../../context.js';
import { PLACEHOLDERS } from '../built-site.js';

/**
 * The API's OpenAPI document, as a server would generate it, for the API reference and
 * /openapi.json of the built site. It comes from the API app itself (its route schemas), built
 * on an in-memory database that no request ever reaches, with the placeholder as its server
 * URL. Only the environment given here counts, not the one of the build.
 */
export async function apiDocument(): Promise<unknown> {
  const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent' });
  const services = await createServices(config, PLACEHOLDERS);
  try {
    const app = await createApiApp(services);
    try {
      await app.ready();
      // A plain JSON value: what the build writes is what a server would send.
      return JSON.parse(JSON.stringify(app.swagger()));
    } finally {
      await app.close();
    }
  } finally {
    await services.close();
  }
}
