import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../keys/format.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

async function rejected(args: string[], expected: Parameters<typeof expectFailure>[1]) {
  const before = sandbox.dump();
  expectFailure(await run(args), expected);
  expect(sandbox.dump()).toBe(before);
}

describe('stockroom user', () => {
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    acme = (await run(['org', 'create', '--name', 'Acme', '--json'])).json.id;
    globex = (await run(['org', 'create', '--name', 'Globex', '--json'])).json.id;
  });

  it('create: makes a new user a member and prints {id, email, organizationId}', async () => {
    const created = await run([
      'user',
      'create',
      '--org',
      'acme',
      '--email',
      'Ana@Example.com',
      '--name',
      'Ana',
      '--json',
    ]);
    expectSuccess(created, { json: true });
    expect(created.json).toMatchObject({
      email: 'Ana@Example.com',
      organizationId: acme,
      name: 'Ana',
      created: true,
    });
    const store = sandbox.store();
    expect(await store.isMember(acme, created.json.id)).toBe(true);
    expect(await store.findUser('ana@example.com')).toMatchObject({
      id: created.json.id,
      name: 'Ana',
    });
  });

  it('create: an existing email (any case) joins the other organization as the same user', async () => {
    const joined = await run(['user', 'create', '--org', globex, '--email', 'ana@EXAMPLE.com']);
    expectSuccess(joined);
    expect(joined.stdout).toMatch(
      /^Added existing user Ana@Example\.com \(id [0-9a-f]{24}\) to globex\n$/,
    );
    const user = await sandbox.store().findUser('ana@example.com');
    expect(await sandbox.store().listMembers(globex)).toEqual([user]);
  });

  it('create: a user who is already a member is a conflict that changes nothing', async () => {
    await rejected(['user', 'create', '--org', 'acme', '--email', 'ana@example.com'], {
      status: 1,
      message: /^stockroom: Ana@Example\.com is already a member of acme$/,
    });
  });

  it.each([
    [['--org', 'acme', '--email', 'not-an-email'], 2, /must be an email address/],
    [['--org', 'acme'], 2, /required option '--email <EMAIL>' not specified/],
    [['--email', 'bo@example.com'], 2, /required option '--org <ORG>' not specified/],
    [['--org', 'nope', '--email', 'bo@example.com'], 1, /no organization with id or slug "nope"/],
  ] as const)('create %j fails with exit %i and changes nothing', async (args, status, message) => {
    await rejected(['user', 'create', ...args], { status, message });
  });

  it("remove: ends the membership, so the user's keys lose access to that organization only", async () => {
    const store = sandbox.store();
    const user = await store.findUser('ana@example.com');
    const key = await run([
      'key',
      'create',
      '--org',
      'acme',
      '--user',
      'ana@example.com',
      '--json',
    ]);
    expectSuccess(key, { json: true });
    expect((await store.loadKeyContext(hashKey(key.json.key)))?.member).toBe(true);

    const removed = await run([
      'user',
      'remove',
      '--org',
      'acme',
      '--user',
      user?.id ?? '',
      '--json',
      '--yes',
    ]);
    expectSuccess(removed, { json: true });
    expect(removed.json).toEqual({
      id: user?.id,
      email: 'Ana@Example.com',
      organizationId: acme,
      removed: true,
    });
    expect(await store.isMember(acme, user?.id ?? '')).toBe(false);
    expect(await store.isMember(globex, user?.id ?? '')).toBe(true);
    // Authentication reads this flag and answers 403 ORGANIZATION_FORBIDDEN.
    expect((await store.loadKeyContext(hashKey(key.json.key)))?.member).toBe(false);
  });

  it.each([
    [
      ['--org', 'acme', '--user', 'ana@example.com'],
      /^stockroom: Ana@Example\.com is not a member of acme$/,
    ],
    [
      ['--org', 'acme', '--user', 'zed@example.com'],
      /^stockroom: no user with id or email "zed@example\.com"$/,
    ],
    [['--org', 'nope', '--user', 'ana@example.com'], /no organization with id or slug "nope"/],
  ])('remove %j is exit 1 and changes nothing', async (args, message) => {
    await rejected(['user', 'remove', '--yes', ...args], { status: 1, message });
    // Nothing to remove: the same error, without a question first.
    await rejected(['user', 'remove', ...args], { status: 1, message });
  });

  it('remove asks on a terminal and needs --yes otherwise', async () => {
    expectSuccess(await run(['user', 'create', '--org', 'acme', '--email', 'cy@example.com']));
    const before = sandbox.dump();
    await rejected(['user', 'remove', '--org', 'acme', '--user', 'cy@example.com'], {
      status: 2,
      message:
        /^stockroom: user remove would remove cy@example\.com from acme \(their keys for it are refused from then on\); stdin is not a terminal, so nothing was asked and nothing changed: pass --yes to confirm$/,
    });
    const declined = await run(['user', 'remove', '--org', 'acme', '--user', 'cy@example.com'], {
      stdin: { isTTY: true, lines: [] },
    });
    expect(declined.status).toBe(1);
    expect(declined.stderr).toBe(
      'Remove cy@example.com from acme? Their keys for it are refused from then on. [y/N] \nstockroom: user remove cancelled; nothing was changed\n',
    );
    expect(sandbox.dump()).toBe(before);
    const removed = await run(['user', 'remove', '--org', 'acme', '--user', 'cy@example.com'], {
      stdin: { isTTY: true, lines: ['y'] },
    });
    expect(removed.status).toBe(0);
    expect(removed.stdout).toMatch(/^Removed cy@example\.com from acme/);
  });

  it('remove: a missing option is a usage error', async () => {
    await rejected(['user', 'remove', '--org', 'acme'], { status: 2, message: /--user <USER>/ });
  });
});
