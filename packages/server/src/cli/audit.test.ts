import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

interface EventView {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

async function audit(...args: string[]): Promise<EventView[]> {
  const listed = await run(['audit', ...args, '--json']);
  expectSuccess(listed, { json: true });
  return listed.json.events;
}

describe('stockroom audit', () => {
  let acme: string;
  let keyId: string;
  let userId: string;
  const before = Date.now();

  beforeAll(async () => {
    acme = (await run(['org', 'create', '--name', 'Acme', '--json'])).json.id;
    expectSuccess(await run(['org', 'create', '--name', 'Globex']));
    userId = (
      await run(['user', 'create', '--org', 'acme', '--email', 'ana@example.com', '--json'])
    ).json.id;
    const created = await run(['key', 'create', '--org', 'acme', '--name', 'Shop', '--json']);
    keyId = created.json.id;
    for (const args of [
      ['key', 'disable', keyId],
      ['key', 'enable', keyId],
      ['key', 'rotate', keyId, '--grace', '1h'],
      ['org', 'update', 'acme', '--name', 'Acme Inc', '--disable-feature', 'inventory'],
      ['org', 'update', 'acme', '--enable-feature', 'inventory'],
      [
        'items',
        'import',
        sandbox.file('items.csv', 'sku,name\nA-1,Anvil\nA-2,Axe\n'),
        '--org',
        'acme',
      ],
      ['items', 'delete', '--org', 'acme', '--sku', 'A-2', '--yes'],
      ['user', 'remove', '--org', 'acme', '--user', 'ana@example.com', '--yes'],
      ['key', 'revoke', keyId, '--yes'],
    ]) {
      expectSuccess(await run(args));
    }
    // Failures leave no event.
    expectFailure(await run(['key', 'disable', keyId]), { status: 1 });
    expectFailure(await run(['items', 'delete', '--org', 'acme', '--sku', 'nope', '--yes']), {
      status: 1,
    });
  });

  it('lists every operator change to an organization, oldest first, with who and when', async () => {
    const events = await audit('--org', 'acme');
    expect(events.map((event) => [event.action, event.target])).toEqual([
      ['organization.created', acme],
      ['member.added', userId],
      ['key.created', keyId],
      ['key.disabled', keyId],
      ['key.enabled', keyId],
      ['key.rotated', keyId],
      ['organization.renamed', acme],
      ['feature.disabled', acme],
      ['feature.enabled', acme],
      ['items.imported', null],
      ['items.deleted', null],
      ['member.removed', userId],
      ['key.revoked', keyId],
    ]);
    const actor = `cli:${os.userInfo().username}`;
    for (const event of events) {
      expect(event.actor).toBe(actor);
      expect(Date.parse(event.at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(event.at)).toBeLessThanOrEqual(Date.now());
    }
    const byAction = Object.fromEntries(events.map((event) => [event.action, event.details]));
    expect(byAction['organization.renamed']).toEqual({ from: 'Acme', to: 'Acme Inc' });
    expect(byAction['feature.disabled']).toEqual({ feature: 'inventory' });
    expect(byAction['member.added']).toEqual({ email: 'ana@example.com', userCreated: true });
    expect(byAction['items.imported']).toEqual({
      file: 'items.csv',
      created: 2,
      updated: 0,
      unchanged: 0,
      failed: 0,
    });
    expect(byAction['items.deleted']).toEqual({ sku: 'A-2' });
    expect(byAction['key.created']).toMatchObject({ name: 'Shop', type: 'organization' });
    expect(byAction['key.rotated']).toMatchObject({
      name: 'Shop',
      previousPrefix: expect.stringMatching(/^sr_org_\w{4}$/),
      previousSecretValidUntil: expect.stringMatching(/Z$/),
    });
  });

  it('never records a secret or a hash', async () => {
    const store = sandbox.store();
    const key = await store.getApiKey(keyId);
    const listed = await run(['audit', '--org', 'acme', '--json']);
    expect(listed.stdout).not.toContain(key?.hash);
    expect(listed.stdout).not.toContain(key?.previousHash);
    expect(listed.stdout).not.toMatch(/sr_org_\w{38}/);
  });

  it('keeps each organization to its own log, and --limit shows the most recent events', async () => {
    expect((await audit('--org', 'globex')).map((event) => event.action)).toEqual([
      'organization.created',
    ]);
    expect((await audit('--org', acme, '--limit', '2')).map((event) => event.action)).toEqual([
      'member.removed',
      'key.revoked',
    ]);
  });

  it('prints a table for people', async () => {
    const human = await run(['audit', '--org', 'acme', '--limit', '1']);
    expectSuccess(human);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AT +ACTOR +ACTION +TARGET +DETAILS$/);
    expect(lines[1]).toMatch(new RegExp(`Z +cli:\\S+ +key\\.revoked +${keyId} +\\{"name":"Shop"`));
  });

  it('refuses an unknown organization (exit 1) and a bad --limit (exit 2)', async () => {
    expectFailure(await run(['audit', '--org', 'nope', '--json']), {
      status: 1,
      code: 'ORGANIZATION_NOT_FOUND',
      json: true,
    });
    expectFailure(await run(['audit', '--org', '0123456789abcdef01234567']), {
      status: 1,
      message: /no audit events/,
    });
    for (const limit of ['0', '-1', 'ten', '10001']) {
      expectFailure(await run(['audit', '--org', 'acme', '--limit', limit]), {
        status: 2,
        message: /whole number from 1 to 10000/,
      });
    }
    expectFailure(await run(['audit']), { status: 2, message: /--org/ });
  });
});
