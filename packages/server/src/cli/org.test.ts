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

describe('stockroom org delete', () => {
  const box = createCliSandbox();
  afterAll(() => box.cleanup());
  const migrated = (async () => {
    const store = box.store();
    await store.migrate();
    return store;
  })();

  /** An organization with two items, a key, a revoked key and a member (also in `kept`). */
  async function arrange(slug: string) {
    const store = await migrated;
    const organization = await store.createOrganization({
      name: `Org ${slug}`,
      slug,
      features: ['inventory'],
    });
    await store.writeItems(organization.id, [
      { sku: `${slug}-1`, name: 'Tent' },
      { sku: `${slug}-2`, name: 'Lamp' },
    ]);
    const member =
      (await store.findUser('member@example.com')) ??
      (await store.createUser({ email: 'member@example.com', name: 'Member' }));
    await store.addMember(organization.id, member.id);
    const key = await issueKey(store, { organizationId: organization.id });
    const revoked = await issueKey(store, { organizationId: organization.id });
    await store.revokeApiKey(revoked.record.id);
    return { organization, member, key };
  }

  let kept: Awaited<ReturnType<typeof arrange>>;
  beforeAll(async () => {
    kept = await arrange('kept');
  });

  it('without --yes or --confirm, stdin not a terminal: a usage error (exit 2) that says what would be deleted; nothing is deleted', async () => {
    const { organization } = await arrange('unconfirmed');
    const before = box.dump();
    const message = new RegExp(
      `^stockroom: org delete would delete the organization "Org unconfirmed" \\(unconfirmed, ${organization.id}\\) with 2 items, 2 API keys and 1 membership \\(its users and audit log stay\\); stdin is not a terminal, so nothing was asked and nothing changed: pass --yes to confirm$`,
    );
    expectFailure(await box.run(['org', 'delete', 'unconfirmed']), { status: 2, message });
    expectFailure(await box.run(['org', 'delete', organization.id, '--json']), {
      status: 2,
      code: 'USAGE_ERROR',
      message,
      json: true,
    });
    expect(box.dump()).toBe(before);
  });

  it('on a terminal: asks with the counts, deletes only on y', async () => {
    const { organization } = await arrange('asked');
    const before = box.dump();
    const declined = await box.run(['org', 'delete', 'asked'], {
      stdin: { isTTY: true, lines: ['n'] },
    });
    expect(declined.status).toBe(1);
    expect(declined.stderr).toBe(
      `Delete the organization "Org asked" (asked, ${organization.id}) with 2 items, 2 API keys and 1 membership? Its users and audit log stay. [y/N] stockroom: org delete cancelled; nothing was changed\n`,
    );
    expect(box.dump()).toBe(before);
    const deleted = await box.run(['org', 'delete', 'asked', '--json'], {
      stdin: { isTTY: true, lines: ['y'] },
    });
    expect(deleted.status).toBe(0);
    expect(deleted.json).toMatchObject({ id: organization.id, deleted: { items: 2 } });
    expect(await box.store().getOrganization(organization.id)).toBeNull();
  });

  it('--yes works as --confirm does', async () => {
    const { organization } = await arrange('yes');
    expectSuccess(await box.run(['org', 'delete', 'yes', '-y']));
    expect(await box.store().getOrganization(organization.id)).toBeNull();
  });

  it('--confirm: deletes items, keys and memberships, keeps users and other organizations, says so', async () => {
    const { organization, member } = await arrange('doomed');
    const deleted = await box.run(['org', 'delete', 'doomed', '--confirm']);
    expectSuccess(deleted);
    expect(deleted.stdout).toBe(
      `Deleted organization Org doomed (doomed, ${organization.id}) with 2 items, 2 API keys and 1 membership. Its users and audit log remain.\n`,
    );
    const store = box.store();
    expect(await store.getOrganization(organization.id)).toBeNull();
    expect(await store.countItems(organization.id)).toBe(0);
    expect(await store.listApiKeys(organization.id)).toEqual([]);
    expect(await store.listMembers(organization.id)).toEqual([]);
    expect(await store.findUser(member.id)).toEqual(member);
    expect(await store.countItems(kept.organization.id)).toBe(2);
    expect(await store.listApiKeys(kept.organization.id)).toHaveLength(2);
    expect(await store.listMembers(kept.organization.id)).toEqual([member]);
    expect((await store.listAuditEvents(organization.id)).at(-1)).toMatchObject({
      action: 'organization.deleted',
      target: organization.id,
    });
  });

  it('--confirm --json: one object with what was deleted', async () => {
    const { organization } = await arrange('doomed-json');
    const deleted = await box.run(['org', 'delete', organization.id, '--confirm', '--json']);
    expectSuccess(deleted, { json: true });
    expect(deleted.json).toEqual({
      id: organization.id,
      slug: 'doomed-json',
      name: 'Org doomed-json',
      deleted: { items: 2, apiKeys: 2, memberships: 1 },
    });
    // Deleting it again: it is unknown now.
    expectFailure(await box.run(['org', 'delete', organization.id, '--confirm', '--json']), {
      status: 1,
      code: 'ORGANIZATION_NOT_FOUND',
      json: true,
    });
  });

  it('an unknown organization is exit 1 with the lookup message, with or without --confirm', async () => {
    const before = box.dump();
    for (const args of [['nope'], ['nope', '--confirm']]) {
      expectFailure(await box.run(['org', 'delete', ...args]), {
        status: 1,
        message: /^stockroom: no organization with id or slug "nope"; see `stockroom org list`$/,
      });
    }
    expect(box.dump()).toBe(before);
  });
});
