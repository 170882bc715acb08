import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../keys/issue.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

/** Runs a command that must fail and proves the database is byte for byte as before. */
async function rejected(args: string[], expected: Parameters<typeof expectFailure>[1]) {
  const before = sandbox.dump();
  expectFailure(await run(args), expected);
  expect(sandbox.dump()).toBe(before);
}

describe('stockroom org', () => {
  let acmeId: string;

  beforeAll(async () => {
    const created = await run(['org', 'create', '--name', 'Acme Outdoor Café', '--json']);
    expectSuccess(created, { json: true });
    acmeId = created.json.id;
  });

  it('create: derives the slug, defaults to the inventory feature, prints one JSON object', async () => {
    const store = sandbox.store();
    const stored = await store.getOrganization(acmeId);
    expect(stored).toMatchObject({
      name: 'Acme Outdoor Café',
      slug: 'acme-outdoor-cafe',
      features: ['inventory'],
    });
    const shown = await run(['org', 'show', acmeId, '--json']);
    expect(shown.json).toMatchObject({
      id: acmeId,
      name: 'Acme Outdoor Café',
      slug: 'acme-outdoor-cafe',
      features: ['inventory'],
      createdAt: new Date(stored?.createdAt ?? 0).toISOString(),
    });
  });

  it('create: takes --slug and --features none, and prints a readable summary without --json', async () => {
    const created = await run([
      'org',
      'create',
      '--name',
      'Bare',
      '--slug',
      'bare-co',
      '--features',
      'none',
    ]);
    expectSuccess(created);
    expect(created.stdout).toMatch(
      /^Created organization Bare\nid: +[0-9a-f]{24}\nname: +Bare\nslug: +bare-co\nfeatures: +\(none\)\n/,
    );
    const org = await sandbox.store().findOrganization('bare-co');
    expect(org?.features).toEqual([]);
  });

  it('create: a duplicate slug is a conflict (exit 1) and changes nothing', async () => {
    await rejected(['org', 'create', '--name', 'Acme Outdoor Cafe'], {
      status: 1,
      message: /^stockroom: an organization with slug "acme-outdoor-cafe" already exists$/,
    });
    const before = sandbox.dump();
    expectFailure(await run(['org', 'create', '--name', 'X', '--slug', 'bare-co', '--json']), {
      status: 1,
      code: 'CONFLICT',
      json: true,
    });
    expect(sandbox.dump()).toBe(before);
  });

  it.each([
    [
      ['--name', 'X', '--slug', 'Bad Slug'],
      /option '--slug <SLUG>' argument 'Bad Slug' is invalid/,
    ],
    [['--name', 'X', '--slug', '0123456789abcdef01234567'], /must not look like an id/],
    [['--name', 'X', '--features', 'inventory,billing'], /unknown feature "billing"/],
    [['--name', '   '], /option '--name <NAME>' argument ' {3}' is invalid. must not be empty/],
    [['--name', 'x'.repeat(201)], /must be at most 200 characters/],
    [['--name', '東京'], /cannot derive a slug from the name "東京"; pass --slug/],
  ])('create %j is a usage error (exit 2) that changes nothing', async (args, message) => {
    await rejected(['org', 'create', ...args], { status: 2, message });
  });

  it('list: every organization in creation order, as {organizations: [...]} or a table', async () => {
    const json = await run(['org', 'list', '--json']);
    expectSuccess(json, { json: true });
    expect(Object.keys(json.json)).toEqual(['organizations']);
    expect(json.json.organizations.map((o: { slug: string }) => o.slug)).toEqual([
      'acme-outdoor-cafe',
      'bare-co',
    ]);
    const human = await run(['org', 'list']);
    expectSuccess(human);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +SLUG +NAME +FEATURES +CREATED$/);
    expect(lines[1]).toMatch(
      /^[0-9a-f]{24} {2}acme-outdoor-cafe {2}Acme Outdoor Café {2}inventory {2}\S+Z$/,
    );
    // Aligned: the SLUG column starts at the same place on every line.
    expect(new Set(lines.map((line) => line.search(/(?<=^\S+ +)\S/)))).toHaveLength(1);
  });

  it('show: by id or slug, with members, item and key counts', async () => {
    const store = sandbox.store();
    const user = await store.createUser({ email: 'ana@example.com', name: 'Ana' });
    await store.addMember(acmeId, user.id);
    await store.writeItems(acmeId, [{ name: 'Tent' }, { name: 'Lamp' }]);
    await issueKey(store, { organizationId: acmeId });
    const revoked = await issueKey(store, { organizationId: acmeId });
    await store.revokeApiKey(revoked.record.id);

    const bySlug = await run(['org', 'show', 'acme-outdoor-cafe', '--json']);
    expectSuccess(bySlug, { json: true });
    expect(bySlug.json).toMatchObject({
      id: acmeId,
      itemCount: 2,
      keyCount: 1,
      members: [{ id: user.id, email: 'ana@example.com', name: 'Ana' }],
    });
    const byId = await run(['org', 'show', acmeId]);
    expectSuccess(byId);
    expect(byId.stdout).toMatch(/^items: +2$/m);
    expect(byId.stdout).toMatch(/ana@example\.com +Ana$/m);
  });

  it('show: an unknown organization is exit 1 with one line', async () => {
    expectFailure(await run(['org', 'show', 'nope']), {
      status: 1,
      message: /^stockroom: no organization with id or slug "nope"; see `stockroom org list`$/,
    });
    expectFailure(await run(['org', 'show', 'nope', '--json']), {
      status: 1,
      code: 'ORGANIZATION_NOT_FOUND',
      json: true,
    });
  });

  it('update: renames and turns features off and on', async () => {
    const renamed = await run([
      'org',
      'update',
      'bare-co',
      '--name',
      'Bare Company',
      '--enable-feature',
      'inventory',
      '--json',
    ]);
    expectSuccess(renamed, { json: true });
    expect(renamed.json).toMatchObject({
      name: 'Bare Company',
      slug: 'bare-co',
      features: ['inventory'],
    });
    const off = await run(['org', 'update', 'bare-co', '--disable-feature', 'inventory']);
    expectSuccess(off);
    expect(off.stdout).toMatch(/^features: +\(none\)$/m);
    expect(await sandbox.store().findOrganization('bare-co')).toMatchObject({
      name: 'Bare Company',
      features: [],
    });
  });

  it.each([
    [['bare-co'], 2, /nothing to update; pass --name, --enable-feature or --disable-feature/],
    [['bare-co', '--enable-feature', 'billing'], 2, /unknown feature "billing"/],
    [
      ['bare-co', '--enable-feature', 'inventory', '--disable-feature', 'inventory'],
      2,
      /cannot both enable and disable/,
    ],
    [['bare-co', '--name', ''], 2, /must not be empty/],
    [['nope', '--name', 'X'], 1, /no organization with id or slug "nope"/],
  ] as const)('update %j fails with exit %i and changes nothing', async (args, status, message) => {
    await rejected(['org', 'update', ...args], { status, message });
  });
});
