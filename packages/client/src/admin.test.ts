import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type AdminTestServer,
  startAdminTestServer,
} from '../../server/src/admin/testing.js';
import { createAdminClient, ItemsRejectedError, type StockroomAdmin } from './admin.js';
import { Stockroom } from './client.js';
import {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  StockroomError,
  TimeoutError,
} from './errors.js';

/**
 * The admin client against a real Stockroom server with the admin API on (through `inject`, on a
 * fresh SQLite database; the network errors against sockets of their own): every method once, the errors it turns answers into, and the token kept secret.
 */

let server: AdminTestServer;
let admin: StockroomAdmin;

beforeAll(async () => {
  server = await startAdminTestServer();
  admin = createAdminClient({ baseUrl: server.adminUrl, token: ADMIN_TOKEN, fetch: server.fetch });
});
afterAll(() => server?.close());

async function rejection(promise: Promise<unknown>): Promise<StockroomError> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as StockroomError,
  );
}

describe('createAdminClient', () => {
  it('takes the admin host with or without /admin/v1, and needs a header-safe token', () => {
    expect(
      createAdminClient({ baseUrl: `${server.adminUrl}/admin/v1/`, token: ADMIN_TOKEN }).baseUrl,
    ).toBe(server.adminUrl);
    expect(() => createAdminClient({ baseUrl: server.adminUrl, token: '' })).toThrow(/ADMIN_TOKEN/);
    expect(() => createAdminClient({ baseUrl: server.adminUrl, token: 'a b' })).toThrow(
      /HTTP header/,
    );
    expect(() => createAdminClient({ baseUrl: 'nope', token: ADMIN_TOKEN })).toThrow(/absolute/);
  });

  it('refuses to be created without a token: a ConfigurationError naming the option and ADMIN_TOKEN', () => {
    for (const token of ['', ' ', undefined]) {
      let error: unknown;
      try {
        createAdminClient({ baseUrl: server.adminUrl, token: token as string });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ code: 'MISSING_ADMIN_TOKEN', status: null });
      expect((error as Error).message).toMatch(/token option.*process\.env\.ADMIN_TOKEN/);
    }
  });

  it('pointed at the real docs host, says so and names the admin URL to use', async () => {
    const lost = createAdminClient({
      baseUrl: server.server.docsUrl,
      token: ADMIN_TOKEN,
      fetch: server.fetch,
    });
    const error = await rejection(lost.organizations.list());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(404);
    expect(error.message).toContain('this looks like the documentation host');
    expect(error.message).toContain('use the admin API URL as baseUrl (port ADMIN_PORT, 3002');
  });

  it('never shows the token', () => {
    expect(JSON.stringify(admin)).not.toContain(ADMIN_TOKEN);
    expect(String(admin)).not.toContain(ADMIN_TOKEN);
  });
});

describe('organizations', () => {
  it('create, list, get, update, delete', async () => {
    const created = await admin.organizations.create({ name: 'Client Co', slug: 'client-co' });
    expect(created).toMatchObject({
      name: 'Client Co',
      slug: 'client-co',
      features: ['inventory'],
    });
    const listed = await admin.organizations.list();
    expect(listed.map((o) => o.slug)).toContain('client-co');
    const shown = await admin.organizations.get('client-co');
    expect(shown).toMatchObject({ id: created.id, itemCount: 0, keyCount: 0, members: [] });
    const updated = await admin.organizations.update(created.id, {
      name: 'Client Company',
      disableFeatures: ['inventory'],
    });
    expect(updated).toMatchObject({ name: 'Client Company', features: [] });
    const preview = await admin.organizations.delete('client-co', { dryRun: true });
    expect(preview).toMatchObject({
      dryRun: true,
      deleted: { items: 0, apiKeys: 0, memberships: 0 },
    });
    expect(await admin.organizations.get('client-co')).toMatchObject({ id: created.id });
    const deleted = await admin.organizations.delete('client-co');
    expect(deleted).toMatchObject({ id: created.id, dryRun: false });
    const gone = await rejection(admin.organizations.get('client-co'));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND', status: 404, param: 'org' });
  });

  it('turns a refused body into InvalidRequestError naming the field', async () => {
    const error = await rejection(
      admin.organizations.create({ name: 'X', features: ['teleport'] }),
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', status: 400, param: 'features[0]' });
    expect(error.docUrl).toMatch(/\/en\/docs\/admin-api#invalid_request$/);
  });
});

describe('keys', () => {
  it('create (shown once) works on the API; list, get, disable, enable, rotate, revoke', async () => {
    const org = await admin.organizations.create({ name: 'Keyed', slug: 'keyed' });
    const created = await admin.keys.create('keyed', {
      name: 'Shop',
      rateLimit: '100/1m',
      remaining: 10,
    });
    expect(created.key).toMatch(/^sr_org_/);
    expect(created).toMatchObject({
      name: 'Shop',
      remaining: 10,
      rateLimit: { max: 100, windowSeconds: 60 },
    });
    const reader = new Stockroom({
      baseUrl: server.server.apiUrl,
      apiKey: created.key,
      maxRetries: 0,
      fetch: server.fetch,
    });
    expect((await reader.organization.get())._id).toBe(org.id);

    expect((await admin.keys.list('keyed')).map((k) => k.id)).toEqual([created.id]);
    expect(await admin.keys.get('keyed', created.id)).not.toHaveProperty('key');
    expect((await admin.keys.disable('keyed', created.id)).state).toBe('disabled');
    expect((await admin.keys.enable('keyed', created.id)).state).toBe('active');
    const rotated = await admin.keys.rotate('keyed', created.id, { grace: '1h' });
    expect(rotated.key).not.toBe(created.key);
    expect(rotated.previousSecretValidUntil).not.toBeNull();
    const revoked = await admin.keys.revoke('keyed', created.id);
    expect(revoked.state).toBe('revoked');
    const again = await rejection(admin.keys.enable('keyed', created.id));
    expect(again).toMatchObject({ code: 'KEY_REVOKED', status: 409 });
    expect(again).toBeInstanceOf(StockroomError);
  });

  it('a view: on create, replaced by update, cleared with null', async () => {
    await admin.organizations.create({ name: 'Viewed', slug: 'viewed' });
    const created = await admin.keys.create('viewed', {
      view: { where: ['status=Active'], hideFields: ['barcode'] },
    });
    expect(created.view).toEqual({
      where: ['status=Active'],
      hideFields: ['barcode'],
      quantityCap: null,
    });
    const capped = await admin.keys.update('viewed', created.id, { view: { quantityCap: 5 } });
    expect(capped.view).toEqual({ where: [], hideFields: [], quantityCap: 5 });
    expect(capped.viewUpdatedAt).not.toBeNull();
    expect((await admin.keys.update('viewed', created.id, { view: null })).view).toBeNull();
    const refused = await rejection(
      admin.keys.update('viewed', created.id, { view: { hideFields: ['name'] } }),
    );
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).toMatchObject({ param: 'view.hideFields[0]' });
  });

  it('a key with defaults needs no input', async () => {
    await admin.organizations.create({ name: 'Defaults', slug: 'defaults' });
    const key = await admin.keys.create('defaults');
    expect(key).toMatchObject({ type: 'organization', permissions: ['inventory:view'] });
  });
});

describe('items', () => {
  it('bulkUpsert with outcomes, ItemsRejectedError with the rows, bulkDelete', async () => {
    await admin.organizations.create({ name: 'Stocked', slug: 'stocked' });
    const result = await admin.items.bulkUpsert('stocked', [
      { sku: 'A-1', name: 'A', quantity: 1 },
      { sku: 'B-1', name: 'B', quantity: 2, customFields: { colour: 'red' } },
    ]);
    expect(result).toMatchObject({ committed: true, created: 2, failed: 0 });
    const dry = await admin.items.bulkUpsert('stocked', [{ sku: 'A-1', quantity: 5 }], {
      dryRun: true,
    });
    expect(dry).toMatchObject({ committed: false, updated: 1 });

    const error = await rejection(
      admin.items.bulkUpsert('stocked', [
        { sku: 'A-1', quantity: 7 },
        { sku: 'C-1', quantity: 'x' as never },
      ]),
    );
    expect(error).toBeInstanceOf(ItemsRejectedError);
    expect(error).toBeInstanceOf(InvalidRequestError);
    const rejected = error as ItemsRejectedError;
    expect(rejected.code).toBe('ITEMS_REJECTED');
    expect(rejected.result.rows.map((r) => r.outcome)).toEqual(['skipped', 'failed']);
    expect(rejected.result.rows[1]?.reason).toMatch(/quantity/);

    const perRow = await admin.items.bulkUpsert(
      'stocked',
      [
        { sku: 'A-1', quantity: 7 },
        { sku: 'C-1', quantity: 'x' as never },
      ],
      { mode: 'per-row' },
    );
    expect(perRow).toMatchObject({ updated: 1, failed: 1 });

    const deleted = await admin.items.bulkDelete('stocked', { skus: ['A-1', 'Z-9'] });
    expect(deleted).toEqual({
      deleted: 1,
      notFound: 1,
      rows: [
        { sku: 'A-1', outcome: 'deleted' },
        { sku: 'Z-9', outcome: 'not_found' },
      ],
    });
  });
});

describe('errors', () => {
  it('a wrong token is an AuthenticationError, and the token is not in it', async () => {
    const wrong = `${ADMIN_TOKEN.slice(0, -1)}!`;
    const client = createAdminClient({
      baseUrl: server.adminUrl,
      token: wrong,
      fetch: server.fetch,
    });
    const error = await rejection(client.organizations.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'ADMIN_UNAUTHORIZED', status: 401 });
    expect(JSON.stringify(error)).not.toContain(wrong);
    expect(error.message).not.toContain(wrong);
  });

  it('the API port is not the admin host: a 404 from it says so', async () => {
    const client = createAdminClient({
      baseUrl: server.server.apiUrl,
      token: ADMIN_TOKEN,
      fetch: server.fetch,
    });
    const error = await rejection(client.organizations.list());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('no server: a ConnectionError that names the admin port and not the token', async () => {
    const client = createAdminClient({
      baseUrl: 'http://127.0.0.1:9',
      token: ADMIN_TOKEN,
      timeoutMs: 5_000,
    });
    const error = await rejection(client.organizations.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/admin port/);
    expect(error.message).not.toContain(ADMIN_TOKEN);
  });

  it('a silent server: a TimeoutError that says the change may have been made', async () => {
    // Accepts the connection and never answers.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const client = createAdminClient({
        baseUrl: `http://127.0.0.1:${port}`,
        token: ADMIN_TOKEN,
        timeoutMs: 200,
      });
      const error = await rejection(client.organizations.create({ name: 'Never', slug: 'never' }));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toBe(
        `No answer from http://127.0.0.1:${port} within 200 ms (POST /admin/v1/organizations); the change may or may not have been made.`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('the OpenAPI document comes from the admin host', async () => {
    const doc = await admin.openapi();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths as object)).toContain('/admin/v1/organizations');
  });
});
