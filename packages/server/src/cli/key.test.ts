import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { generateKey, hashKey, isWellFormedKey } from '../keys/format.js';
import { issueKey } from '../keys/issue.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

async function rejected(args: string[], expected: Parameters<typeof expectFailure>[1]) {
  const before = sandbox.dump();
  expectFailure(await run(args), expected);
  expect(sandbox.dump()).toBe(before);
}

describe('stockroom key', () => {
  let acme: string;

  beforeAll(async () => {
    acme = (await run(['org', 'create', '--name', 'Acme', '--json'])).json.id;
    expectSuccess(await run(['user', 'create', '--org', 'acme', '--email', 'ana@example.com']));
    expectSuccess(await run(['org', 'create', '--name', 'Globex']));
    expectSuccess(await run(['user', 'create', '--org', 'globex', '--email', 'bo@example.com']));
  });

  it('create: an organization key with the defaults; the secret is printed once and stored only as a hash', async () => {
    const created = await run(['key', 'create', '--org', 'acme', '--json']);
    expectSuccess(created, { json: true });
    const { key, id } = created.json;
    expect(isWellFormedKey(key)).toBe(true);
    expect(key).toMatch(/^sr_org_/);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      key,
      prefix: key.slice(0, 11),
      name: 'Organization key',
      type: 'organization',
      organizationId: acme,
      userId: null,
      userEmail: null,
      permissions: ['inventory:view'],
      state: 'active',
      expiresAt: null,
      remaining: null,
      rateLimit: { max: 600, windowSeconds: 60 },
      createdAt: expect.stringMatching(/Z$/),
      lastUsedAt: null,
      revokedAt: null,
      previousSecretValidUntil: null,
      view: null,
      viewUpdatedAt: null,
    });
    const stored = await sandbox.store().getApiKey(id);
    expect(stored?.hash).toBe(hashKey(key));
    expect(sandbox.dump()).not.toContain(key);
    expect(created.stdout).not.toContain(stored?.hash);
  });

  it('create: human output shows the key with the shown-only-once warning', async () => {
    const created = await run(['key', 'create', '--org', 'acme', '--name', 'CI']);
    expectSuccess(created);
    const key = /^ {2}(sr_org_\w+)$/m.exec(created.stdout)?.[1] ?? '';
    expect(isWellFormedKey(key)).toBe(true);
    expect(created.stdout).toMatch(/shown only once/);
    expect(created.stdout).toMatch(/^name: +CI$/m);
  });

  it('create: applies every option', async () => {
    const before = Date.now();
    const created = await run([
      'key',
      'create',
      '--org',
      acme,
      '--name',
      'Partner',
      '--permissions',
      'none',
      '--expires-in',
      '30d',
      '--remaining',
      '0',
      '--rate-limit',
      '10/1s',
      '--json',
    ]);
    const after = Date.now();
    expectSuccess(created, { json: true });
    expect(created.json).toMatchObject({
      name: 'Partner',
      permissions: [],
      remaining: 0,
      state: 'exhausted',
      rateLimit: { max: 10, windowSeconds: 1 },
    });
    const expiresAt = Date.parse(created.json.expiresAt);
    expect(expiresAt - 30 * 86_400_000).toBeGreaterThanOrEqual(before);
    expect(expiresAt - 30 * 86_400_000).toBeLessThanOrEqual(after);

    const at = await run([
      'key',
      'create',
      '--org',
      'acme',
      '--expires-at',
      '2099-01-31T18:00:00+02:00',
      '--rate-limit',
      'none',
      '--json',
    ]);
    expectSuccess(at, { json: true });
    expect(at.json).toMatchObject({ expiresAt: '2099-01-31T16:00:00.000Z', rateLimit: null });
    expect(await sandbox.store().getApiKey(at.json.id)).toMatchObject({
      expiresAt: Date.UTC(2099, 0, 31, 16),
      rateLimit: null,
    });
  });

  it('create: accepts every bound itself', async () => {
    const before = Date.now();
    const created = await run([
      'key',
      'create',
      '--org',
      'acme',
      '--name',
      'Bounds',
      '--expires-in',
      '36500d',
      '--remaining',
      '1000000000',
      '--rate-limit',
      '1000000000/365d',
      '--json',
    ]);
    expectSuccess(created, { json: true });
    expect(created.json).toMatchObject({
      remaining: 1_000_000_000,
      rateLimit: { max: 1_000_000_000, windowSeconds: 365 * 86_400 },
    });
    expect(Date.parse(created.json.expiresAt) - 36_500 * 86_400_000).toBeGreaterThanOrEqual(before);
  });

  it('list: a key stored with an expiry no date can show (as the unbounded CLI wrote) still lists', async () => {
    const store = sandbox.store();
    const org = (await run(['org', 'create', '--name', 'Far Future', '--json'])).json.id;
    // What `--expires-in 999999999d` used to store before the CLI bounded expiries.
    const far = await issueKey(store, {
      organizationId: org,
      name: 'Far',
      expiresAt: Date.now() + 999_999_999 * 86_400_000,
    });
    const listed = await run(['key', 'list', '--org', org, '--json']);
    expectSuccess(listed, { json: true });
    expect(listed.json.keys).toMatchObject([
      { id: far.record.id, state: 'active', expiresAt: '9999-12-31T23:59:59.999Z' },
    ]);
    expectSuccess(await run(['key', 'list', '--org', org]));
  });

  it('create --user: a user key for a member', async () => {
    const created = await run([
      'key',
      'create',
      '--org',
      'acme',
      '--user',
      'ANA@example.com',
      '--json',
    ]);
    expectSuccess(created, { json: true });
    const user = await sandbox.store().findUser('ana@example.com');
    expect(created.json).toMatchObject({
      type: 'user',
      userId: user?.id,
      userEmail: 'ana@example.com',
    });
    expect(created.json.key).toMatch(/^sr_usr_/);
  });

  it.each([
    [
      ['--org', 'acme', '--user', 'bo@example.com'],
      'NOT_A_MEMBER',
      /bo@example\.com is not a member of acme/,
    ],
    [['--org', 'acme', '--user', 'zed@example.com'], 'USER_NOT_FOUND', /no user with id or email/],
    [['--org', 'nope'], 'ORGANIZATION_NOT_FOUND', /no organization with id or slug "nope"/],
  ])('create %j fails with exit 1 (%s) and changes nothing', async (args, code, message) => {
    const before = sandbox.dump();
    expectFailure(await run(['key', 'create', ...args, '--json']), {
      status: 1,
      code,
      message,
      json: true,
    });
    expect(sandbox.dump()).toBe(before);
  });

  it.each([
    [['--expires-in', '30'], /DURATION must be a positive integer followed by s, m, h or d/],
    [['--expires-in', '0d'], /DURATION must be/],
    [['--expires-in', '1w'], /DURATION must be/],
    [
      ['--expires-in', '1d', '--expires-at', '2099-01-01'],
      /cannot be used with option '--expires-at <ISO>'/,
    ],
    [['--expires-at', '2099-02-30'], /is not a real date/],
    [['--expires-at', 'next week'], /use an ISO 8601 date/],
    [['--expires-at', '2099-01-01T10:00:00'], /use an ISO 8601 date/],
    [['--expires-at', '2001-01-01'], /is in the past/],
    [['--expires-in', '999999999d'], /the expiry must be at most 100 years ahead \(36500d\)/],
    [['--expires-in', '36501d'], /the expiry must be at most 100 years ahead/],
    [['--expires-in', '99999999999999999999s'], /the duration is too long/],
    [['--expires-at', '9999-12-31'], /is more than 100 years ahead/],
    [['--remaining', '1000000001'], /must be at most 1,000,000,000/],
    [['--rate-limit', '5/99999999999d'], /the window must be at most 365 days/],
    [['--rate-limit', '5/366d'], /the window must be at most 365 days/],
    [['--rate-limit', '1000000001/1m'], /MAX must be at most 1,000,000,000 requests per window/],
    [['--remaining', '-1'], /must be a non-negative integer/],
    [['--remaining', '1.5'], /must be a non-negative integer/],
    [['--rate-limit', '600'], /use MAX\/DURATION/],
    [['--rate-limit', '0/1m'], /use MAX\/DURATION/],
    [['--rate-limit', '600/1x'], /use MAX\/DURATION/],
    [['--permissions', 'inventory:edit'], /unknown permission "inventory:edit"/],
    [['--name', ''], /must not be empty/],
    [['--colour', 'red'], /unknown option '--colour'/],
  ])('create %j is a usage error (exit 2) that changes nothing', async (args, message) => {
    await rejected(['key', 'create', '--org', 'acme', ...args], { status: 2, message });
  });

  it('list: every key with its state, never the hash', async () => {
    const store = sandbox.store();
    const disabled = await issueKey(store, { organizationId: acme, name: 'Off' });
    await store.setApiKeyEnabled(disabled.record.id, false);
    await issueKey(store, {
      organizationId: acme,
      name: 'Old',
      expiresAt: Date.UTC(2020, 0, 1),
    });
    const revoked = await issueKey(store, { organizationId: acme, name: 'Gone' });
    await store.revokeApiKey(revoked.record.id);

    const listed = await run(['key', 'list', '--org', 'acme', '--json']);
    expectSuccess(listed, { json: true });
    expect(Object.keys(listed.json)).toEqual(['keys']);
    const states = Object.fromEntries(
      listed.json.keys.map((k: { name: string; state: string }) => [k.name, k.state]),
    );
    expect(states).toMatchObject({
      'Organization key': 'active',
      CI: 'active',
      Partner: 'exhausted',
      'User key': 'active',
      Off: 'disabled',
      Old: 'expired',
      Gone: 'revoked',
    });
    for (const key of await store.listApiKeys(acme)) expect(listed.stdout).not.toContain(key.hash);
    expect(listed.stdout).not.toContain('"hash"');
    expect(listed.stdout).not.toContain('"key"');

    const human = await run(['key', 'list', '--org', acme]);
    expectSuccess(human);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +PREFIX +NAME +TYPE +STATE +VIEW +EXPIRES +LAST USED$/);
    expect(lines).toHaveLength(1 + listed.json.keys.length);
    expect(human.stdout).toMatch(/ user +active +all +never +never$/m);
    expect(human.stdout).toMatch(/ Partner +org +exhausted +all +\d{4}-\d\d-\d\d +never$/m);

    const wide = await run(['key', 'list', '--org', acme, '--wide']);
    expectSuccess(wide);
    const wideLines = wide.stdout.trimEnd().split('\n');
    expect(wideLines[0]).toMatch(
      /^ID +PREFIX +NAME +TYPE +USER +STATE +REMAINING +RATE LIMIT +EXPIRES +LAST USED +VIEW$/,
    );
    expect(wideLines).toHaveLength(1 + listed.json.keys.length);
    expect(wide.stdout).toMatch(/ user +ana@example\.com +active +- +600\/1m +never +never +all$/m);
    expect(wide.stdout).toMatch(
      /Partner +organization +- +exhausted +0 +10\/1s +\S+Z +never +all$/m,
    );
  });

  it('list: every line fits 100 columns with realistic keys; --wide keeps every detail', async () => {
    const org = (await run(['org', 'create', '--name', 'Wide Widgets', '--json'])).json.id;
    expectSuccess(
      await run([
        'user',
        'create',
        '--org',
        org,
        '--email',
        'maria.fernanda.gonzalez-villalobos@procurement.example-enterprise.com',
      ]),
    );
    const store = sandbox.store();
    const longName =
      'Warehouse scanner integration for the north distribution centre (nightly sync)';
    await issueKey(store, {
      organizationId: org,
      name: longName,
      expiresAt: Date.UTC(2027, 0, 31, 12),
      remaining: 1_000_000_000,
      rateLimit: { max: 1_000_000_000, windowSeconds: 365 * 86400 },
    });
    const userId = (
      await store.findUser('maria.fernanda.gonzalez-villalobos@procurement.example-enterprise.com')
    )?.id;
    await issueKey(store, {
      organizationId: org,
      userId: userId ?? null,
      name: 'Reports: Ñandú café 📦 quarterly exports',
    });
    await issueKey(store, { organizationId: org, name: 'CI' });

    const listed = await run(['key', 'list', '--org', org]);
    expectSuccess(listed);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(listed.stdout).toContain('Warehouse scanner');
    expect(listed.stdout).toContain('…');
    expect(listed.stdout).toMatch(/ org +active +all +2027-01-31 +never$/m);

    const wide = await run(['key', 'list', '--org', org, '--wide']);
    expect(wide.stdout).toContain(longName);
    expect(wide.stdout).toContain(
      'maria.fernanda.gonzalez-villalobos@procurement.example-enterprise.com',
    );
    expect(wide.stdout).toContain('2027-01-31T12:00:00.000Z');
  });

  it('list: an unknown organization is exit 1', async () => {
    expectFailure(await run(['key', 'list', '--org', 'nope']), {
      status: 1,
      message: /no organization/,
    });
  });

  it('disable, enable and revoke change the state', async () => {
    const id = (await run(['key', 'create', '--org', 'acme', '--json'])).json.id;
    const store = sandbox.store();

    const disabled = await run(['key', 'disable', id, '--json']);
    expectSuccess(disabled, { json: true });
    expect(disabled.json).toMatchObject({ id, state: 'disabled' });
    expect((await store.getApiKey(id))?.enabled).toBe(false);

    const enabled = await run(['key', 'enable', id]);
    expectSuccess(enabled);
    expect(enabled.stdout).toMatch(
      new RegExp(`^Enabled key ${id} \\(sr_org_\\w{4}, "Organization key"\\)\\n$`),
    );
    expect((await store.getApiKey(id))?.enabled).toBe(true);

    const revoked = await run(['key', 'revoke', id, '--json', '--yes']);
    expectSuccess(revoked, { json: true });
    expect(revoked.json).toMatchObject({ id, state: 'revoked' });
    const revokedAt = (await store.getApiKey(id))?.revokedAt;
    expect(revokedAt).not.toBeNull();

    // Revoking again is harmless and keeps the first revocation time.
    expectSuccess(await run(['key', 'revoke', id, '--yes']));
    expect((await store.getApiKey(id))?.revokedAt).toBe(revokedAt);

    await rejected(['key', 'enable', id], {
      status: 1,
      message: /is revoked and cannot be enabled/,
    });
    await rejected(['key', 'disable', id], {
      status: 1,
      message: /is revoked and cannot be disabled/,
    });
  });

  it('rotate: a new secret shown once, the same key; the old secret works only through --grace', async () => {
    const created = (
      await run(['key', 'create', '--org', 'acme', '--name', 'Shop', '--remaining', '50', '--json'])
    ).json;
    const store = sandbox.store();

    const rotated = await run(['key', 'rotate', created.id, '--grace', '2h', '--json']);
    expectSuccess(rotated, { json: true });
    const { key } = rotated.json;
    expect(isWellFormedKey(key)).toBe(true);
    expect(key).not.toBe(created.key);
    const graceEnd = Date.parse(rotated.json.previousSecretValidUntil);
    expect(graceEnd - Date.now()).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(graceEnd - Date.now()).toBeLessThanOrEqual(2 * 3600_000);
    // Same key: id, name, quota, rate limit and permissions kept; only the secret changed.
    expect(rotated.json).toEqual({
      ...created,
      key,
      prefix: key.slice(0, 11),
      previousSecretValidUntil: rotated.json.previousSecretValidUntil,
    });
    const stored = await store.getApiKey(created.id);
    expect(stored).toMatchObject({ hash: hashKey(key), previousHash: hashKey(created.key) });
    expect((await store.loadKeyContext(hashKey(created.key)))?.key.id).toBe(created.id);
    expect(rotated.stdout).not.toContain(stored?.hash);
    expect(rotated.stdout).not.toContain(stored?.previousHash);

    // Without --grace the previous secret stops at once.
    const human = await run(['key', 'rotate', created.id]);
    expectSuccess(human);
    expect(human.stdout).toMatch(/^Rotated key [0-9a-f]{24} \(sr_org_\w{4}, "Shop"\)$/m);
    expect(human.stdout).toMatch(/This key is shown only once/);
    expect(human.stdout).toMatch(/The old secret stopped working now\.$/m);
    const latest = /^ {2}(sr_org_\w+)$/m.exec(human.stdout)?.[1] ?? '';
    expect(await store.loadKeyContext(hashKey(key))).toBeNull();
    expect(await store.loadKeyContext(hashKey(created.key))).toBeNull();
    expect((await store.loadKeyContext(hashKey(latest)))?.key.remaining).toBe(50);

    await rejected(['key', 'rotate', created.id, '--grace', '91d'], {
      status: 2,
      message: /at most 90 days/,
    });
    await rejected(['key', 'rotate', created.id, '--grace', '0'], {
      status: 2,
      message: /DURATION must be/,
    });
    expectSuccess(await run(['key', 'revoke', created.id, '-y']));
    await rejected(['key', 'rotate', created.id], {
      status: 1,
      message: /is revoked and cannot be rotated/,
    });
  });

  /** A key with a chosen display prefix (prefixes are random: this is how two can collide). */
  async function keyWithPrefix(organizationId: string, prefix: string, name: string) {
    return sandbox.store().createApiKey({
      id: newId(),
      organizationId,
      userId: null,
      type: 'organization',
      name,
      prefix,
      hash: hashKey(`${prefix}${name}`),
      permissions: ['inventory:view'],
      expiresAt: null,
      remaining: null,
      rateLimit: null,
      createdAt: Date.now(),
      view: null,
    });
  }

  it('KEY may be the prefix logs and auth/verify show, or the key itself (never echoed)', async () => {
    const created = (await run(['key', 'create', '--org', 'acme', '--name', 'By prefix', '--json']))
      .json;
    const disabled = await run(['key', 'disable', created.prefix, '--json']);
    expectSuccess(disabled, { json: true });
    expect(disabled.json).toMatchObject({ id: created.id, state: 'disabled' });

    const enabled = await run(['key', 'enable', created.key]);
    expectSuccess(enabled);
    expect(enabled.stdout).toContain(`Enabled key ${created.id} (${created.prefix}, "By prefix")`);
    expect(enabled.stdout).not.toContain(created.key);

    // A well-formed key nobody has: not found, and only its prefix is shown.
    const other = generateKey('organization').key;
    const unknown = await run(['key', 'revoke', other, '--yes']);
    expectFailure(unknown, {
      status: 1,
      message: /no key \(or only a revoked one\) has the secret/,
    });
    expect(unknown.stderr).not.toContain(other);
    expect(unknown.stderr).toContain(`${other.slice(0, 11)}…`);
    // A mistyped key (bad checksum) is a usage error that does not echo it either.
    const typo = `${created.key.slice(0, -1)}${created.key.endsWith('A') ? 'B' : 'A'}`;
    const mistyped = await run(['key', 'disable', typo]);
    expectFailure(mistyped, { status: 2, message: /must be a key id/ });
    expect(mistyped.stderr).not.toContain(typo);

    expectFailure(await run(['key', 'disable', 'sr_org_zzZZ', '--json']), {
      status: 1,
      code: 'KEY_NOT_FOUND',
      message: /no key has the prefix sr_org_zzZZ \(prefixes are case-sensitive\)/,
      json: true,
    });
  });

  it('an ambiguous prefix names every key it matches, by id; a revoked twin does not count', async () => {
    const globex = (await run(['org', 'show', 'globex', '--json'])).json.id;
    const first = await keyWithPrefix(acme, 'sr_org_Dup1', 'Shop');
    const second = await keyWithPrefix(globex, 'sr_org_Dup1', 'Reports');
    const before = sandbox.dump();
    const ambiguous = await run(['key', 'revoke', 'sr_org_Dup1', '--yes', '--json']);
    expectFailure(ambiguous, {
      status: 1,
      code: 'KEY_AMBIGUOUS',
      message: `stockroom: the prefix sr_org_Dup1 matches 2 keys: ${first.id} (acme, "Shop", active), ${second.id} (globex, "Reports", active); pass the key id instead`,
      json: true,
    });
    expect(sandbox.dump()).toBe(before);

    await sandbox.store().revokeApiKey(first.id);
    const disabled = await run(['key', 'disable', 'sr_org_Dup1', '--json']);
    expectSuccess(disabled, { json: true });
    expect(disabled.json).toMatchObject({ id: second.id, state: 'disabled' });
  });

  it('revoke asks on a terminal (y/N), needs --yes otherwise, and changes nothing unless confirmed', async () => {
    const created = (await run(['key', 'create', '--org', 'acme', '--name', 'Asked', '--json']))
      .json;
    const before = sandbox.dump();

    // No terminal, no --yes: exit 2, saying what would happen and to pass --yes.
    const piped = await run(['key', 'revoke', created.prefix]);
    expectFailure(piped, {
      status: 2,
      message: new RegExp(
        `^stockroom: key revoke would revoke key ${created.id} \\(${created.prefix}, "Asked"\\) \\(revocation is permanent: .*\\); stdin is not a terminal, so nothing was asked and nothing changed: pass --yes to confirm$`,
      ),
    });
    expect(
      (await run(['key', 'revoke', created.id], { stdin: { isTTY: false, lines: ['y'] } })).status,
    ).toBe(2);

    // A terminal: the question on stderr; anything but y/yes (or the end of input) cancels.
    for (const lines of [['n'], [''], ['yess'], []]) {
      const declined = await run(['key', 'revoke', created.id, '--json'], {
        stdin: { isTTY: true, lines },
      });
      expect(declined.status).toBe(1);
      expect(declined.stderr).toMatch(
        new RegExp(
          `^Revoke key ${created.id} \\(${created.prefix}, "Asked"\\)\\? Revocation is permanent: .* \\[y/N\\] `,
        ),
      );
      expect(declined.stderr).toMatch(/stockroom: key revoke cancelled; nothing was changed\n$/);
      expect(declined.json).toEqual({
        error: { code: 'CANCELLED', message: 'key revoke cancelled; nothing was changed' },
      });
    }
    expect(sandbox.dump()).toBe(before);

    const confirmed = await run(['key', 'revoke', created.prefix, '--json'], {
      stdin: { isTTY: true, lines: [' Yes '] },
    });
    expect(confirmed.status).toBe(0);
    expect(confirmed.json).toMatchObject({ id: created.id, state: 'revoked' });

    // disable is undone by enable: it is not asked about.
    const other = (await run(['key', 'create', '--org', 'acme', '--json'])).json;
    const disabled = await run(['key', 'disable', other.id], { stdin: { isTTY: true, lines: [] } });
    expectSuccess(disabled);
  });

  it.each(['disable', 'enable', 'revoke', 'rotate'])(
    '%s: a malformed id is exit 2, an unknown one exit 1',
    async (verb) => {
      await rejected(['key', verb, 'sr_org_abc'], {
        status: 2,
        message:
          /must be a key id \(24 lowercase hex characters\) or a key prefix such as sr_org_AbC1/,
      });
      await rejected(['key', verb], { status: 2, message: /missing required argument 'KEY'/ });
      const before = sandbox.dump();
      expectFailure(await run(['key', verb, '0123456789abcdef01234567', '--json']), {
        status: 1,
        code: 'KEY_NOT_FOUND',
        json: true,
      });
      expect(sandbox.dump()).toBe(before);
    },
  );
});
