import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import {
  expectApiError,
  KEYED_ROUTES,
  keyedRouteSecuritySuite,
} from '../../testing/security-suite.js';

keyedRouteSecuritySuite(KEYED_ROUTES.organization);

describe('GET /api/v1/organization', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('returns the selected fields of the key’s organization, in order', async () => {
    const response = await server.request('/api/v1/organization', { key: server.demo.key });
    expect(response.status).toBe(200);
    const organization = await server.store.getOrganization(server.demo.organizationId);
    expect(response.text).toBe(
      JSON.stringify({
        data: {
          _id: server.demo.organizationId,
          name: 'Demo Outfitters',
          slug: 'demo-outfitters',
          features: ['inventory'],
          createdAt: new Date(organization?.createdAt ?? 0).toISOString(),
        },
      }),
    );
  });

  it('needs no permission and no feature flag', async () => {
    const org = await server.createOrganization({ features: [] });
    const { key } = await server.createKey({ organizationId: org.id, permissions: [] });
    const response = await server.request('/api/v1/organization', { key });
    expect(response.status).toBe(200);
    expect(response.body.data.features).toEqual([]);
  });

  it('spends one use of the quota', async () => {
    const { key } = await server.createKey({
      organizationId: server.demo.organizationId,
      remaining: 1,
    });
    expect((await server.request('/api/v1/organization', { key })).status).toBe(200);
    expectApiError(await server.request('/api/v1/organization', { key }), 401, 'KEY_EXHAUSTED');
  });

  it('rejects unknown parameters', async () => {
    expectApiError(
      await server.request('/api/v1/organization?limit=5', { key: server.demo.key }),
      400,
      'UNKNOWN_PARAMETER',
    );
  });
});
