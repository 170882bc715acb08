import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../keys/issue.js';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

/** Key views on the CLI (docs/architecture.md#key-views): `key create` flags and `key update`. */

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;

async function rejected(args: string[], expected: Parameters<typeof expectFailure>[1]) {
  const before = sandbox.dump();
  expectFailure(await run(args), expected);
  expect(sandbox.dump()).toBe(before);
}

async function created(...flags: string[]) {
  const answer = await run(['key', 'create', '--org', 'acme', ...flags, '--json']);
  expectSuccess(answer, { json: true });
  return answer.json as { id: string; prefix: string; key: string; view: unknown };
}

describe('key views on the CLI', () => {
  let acme: string;

  beforeAll(async () => {
    acme = (await run(['org', 'create', '--name', 'Acme', '--json'])).json.id;
    for (const code of ['WH-1', 'SHOP']) {
      expectSuccess(
        await run(['location', 'create', '--org', 'acme', '--code', code, '--name', code]),
      );
    }
  });

  it('create: a key without view flags has no view', async () => {
    const key = await created();
    expect(key).toMatchObject({ view: null, viewUpdatedAt: null });
    expect((await sandbox.store().getApiKey(key.id))?.view).toBeNull();
  });

  it('create --where: repeatable, canonical, stored and audited', async () => {
    const key = await created(
      '--where',
      'status=Active,Draft,Active',
      '--where',
      ' location=WH-1 ',
      '--where',
      'customFields.colour=red',
    );
    const view = {
      where: ['status=Draft,Active', 'location=WH-1', 'customFields.colour=red'],
      hideFields: [],
      quantityCap: null,
    };
    expect(key.view).toEqual(view);
    expect((await sandbox.store().getApiKey(key.id))?.view).toEqual(view);
    const [event] = (await sandbox.store().listAuditEvents(acme)).filter(
      (e) => e.action === 'key.created' && e.target === key.id,
    );
    expect(event?.details).toMatchObject({ view });
  });

  it('create --hide-fields: repeatable, comma-separated, in item order without duplicates', async () => {
    const key = await created(
      '--hide-fields',
      'stock,barcode',
      '--hide-fields',
      'customFields.cost, barcode',
    );
    expect(key.view).toEqual({
      where: [],
      hideFields: ['barcode', 'stock', 'customFields.cost'],
      quantityCap: null,
    });
  });

  it('create --quantity-cap, and the human output shows the view in one line', async () => {
    expect((await created('--quantity-cap', '0')).view).toEqual({
      where: [],
      hideFields: [],
      quantityCap: 0,
    });
    const human = await run([
      'key',
      'create',
      '--org',
      'acme',
      '--where',
      'status=Active',
      '--hide-fields',
      'barcode',
      '--quantity-cap',
      '10',
    ]);
    expectSuccess(human);
    expect(human.stdout).toMatch(/^view: +where status=Active; hide barcode; cap 10$/m);
    const plain = await run(['key', 'create', '--org', 'acme']);
    expect(plain.stdout).toMatch(/^view: +all$/m);
  });

  it.each([
    [['--where', 'colour=red'], /option '--where <EXPR>' argument .*cannot be filtered on/],
    [['--where', 'status'], /option '--where <EXPR>' argument .*is not a filter/],
    [['--where', 'status=Gone'], /option '--where <EXPR>' argument .*"Gone" is not a status/],
    [['--where', 'location='], /option '--where <EXPR>' argument/],
    [['--where', 'customFields.=x'], /option '--where <EXPR>' argument .*customFields\.NAME/],
    [['--where', 'none', '--where', 'status=Active'], /'--where <EXPR>' cannot be "none" and/],
    [
      Array.from({ length: 11 }, (_, i) => ['--where', `customFields.f${i}=x`]).flat(),
      /option '--where <EXPR>': a view takes at most 10 filters, got 11/,
    ],
    [['--hide-fields', 'name'], /'--hide-fields <LIST>' argument .*name cannot be hidden/],
    [['--hide-fields', '_id'], /'--hide-fields <LIST>' argument .*_id cannot be hidden/],
    [['--hide-fields', 'colour'], /'--hide-fields <LIST>' argument .*is not an item field/],
    [['--hide-fields', ','], /'--hide-fields <LIST>' argument .*no field named/],
    [['--quantity-cap', '-1'], /'--quantity-cap <N>' argument .*is not a quantity cap/],
    [['--quantity-cap', '1.5'], /'--quantity-cap <N>' argument .*is not a quantity cap/],
    [['--quantity-cap', '1000000001'], /'--quantity-cap <N>' argument .*is not a quantity cap/],
    [['--clear-view'], /unknown option '--clear-view'/],
  ])(
    'create %j is a usage error (exit 2) naming the flag; nothing stored',
    async (args, message) => {
      await rejected(['key', 'create', '--org', 'acme', ...args], { status: 2, message });
    },
  );

  it('create: a location the organization lacks is refused (exit 1, LOCATION_NOT_FOUND)', async () => {
    const before = sandbox.dump();
    expectFailure(
      await run(['key', 'create', '--org', 'acme', '--where', 'location=NOPE', '--json']),
      {
        status: 1,
        code: 'LOCATION_NOT_FOUND',
        message: /acme has no location with code NOPE/,
        json: true,
      },
    );
    expect(sandbox.dump()).toBe(before);
  });

  it('update: each part given replaces that part, the others are kept; audited with both views', async () => {
    const key = await created('--where', 'status=Active', '--hide-fields', 'barcode');
    const where = await run(['key', 'update', key.prefix, '--where', 'location=SHOP', '--json']);
    expectSuccess(where, { json: true });
    expect(where.json).toMatchObject({
      id: key.id,
      view: { where: ['location=SHOP'], hideFields: ['barcode'], quantityCap: null },
      viewUpdatedAt: expect.stringMatching(/Z$/),
    });

    const cap = await run(['key', 'update', key.id, '--quantity-cap', '5', '--json']);
    expect(cap.json.view).toEqual({
      where: ['location=SHOP'],
      hideFields: ['barcode'],
      quantityCap: 5,
    });
    const hide = await run(['key', 'update', key.key, '--hide-fields', 'stock', '--json']);
    expect(hide.json.view).toEqual({
      where: ['location=SHOP'],
      hideFields: ['stock'],
      quantityCap: 5,
    });
    // "none" drops one part.
    const dropped = await run([
      'key',
      'update',
      key.id,
      '--where',
      'none',
      '--quantity-cap',
      'none',
      '--json',
    ]);
    expect(dropped.json.view).toEqual({ where: [], hideFields: ['stock'], quantityCap: null });
    expect((await sandbox.store().getApiKey(key.id))?.view).toEqual(dropped.json.view);

    const events = (await sandbox.store().listAuditEvents(acme)).filter(
      (e) => e.action === 'key.updated' && e.target === key.id,
    );
    expect(events).toHaveLength(4);
    for (const event of events) expect(event.actor).toMatch(/^cli/);
    expect(events[0]?.details).toMatchObject({
      prefix: key.prefix,
      previousView: { where: ['status=Active'], hideFields: ['barcode'], quantityCap: null },
      view: { where: ['location=SHOP'], hideFields: ['barcode'], quantityCap: null },
    });
  });

  it('update --clear-view removes the whole view; human output shows the result', async () => {
    const key = await created('--where', 'status=Active');
    const cleared = await run(['key', 'update', key.id, '--clear-view']);
    expectSuccess(cleared);
    expect(cleared.stdout).toMatch(
      new RegExp(
        `^Updated the view of key ${key.id} \\(${key.prefix}, "Organization key"\\)$`,
        'm',
      ),
    );
    expect(cleared.stdout).toMatch(/^view: +all$/m);
    expect((await sandbox.store().getApiKey(key.id))?.view).toBeNull();

    const set = await run(['key', 'update', key.id, '--hide-fields', 'description']);
    expect(set.stdout).toMatch(/^view: +hide description$/m);
    // A view that ends up empty is no view.
    const emptied = await run(['key', 'update', key.id, '--hide-fields', 'none', '--json']);
    expect(emptied.json.view).toBeNull();
  });

  it('update: the same view again changes nothing (usage error, no audit event)', async () => {
    const key = await created('--where', 'status=Active');
    await rejected(['key', 'update', key.id, '--where', 'status=Active'], {
      status: 2,
      message: /already has this view \(where status=Active\); nothing was changed/,
    });
    expectSuccess(await run(['key', 'update', key.id, '--clear-view']));
    await rejected(['key', 'update', key.id, '--clear-view'], {
      status: 2,
      message: /has no view already/,
    });
  });

  it.each([
    [[], /nothing to update; pass --where, --hide-fields, --quantity-cap or --clear-view/],
    [['--clear-view', '--where', 'status=Active'], /'--clear-view' cannot be used with option/],
    [['--quantity-cap', '5', '--clear-view'], /'--clear-view' cannot be used with option/],
    [['--where', 'status=Nope'], /option '--where <EXPR>' argument/],
    [['--hide-fields', 'none,barcode'], /is not an item field/],
  ])('update %j is a usage error (exit 2); nothing changes', async (args, message) => {
    const key = await created('--quantity-cap', '3');
    await rejected(['key', 'update', key.id, ...args], { status: 2, message });
  });

  it('update: an unknown location, a revoked key and an unknown key are refused (exit 1)', async () => {
    const key = await created();
    const before = sandbox.dump();
    expectFailure(await run(['key', 'update', key.id, '--where', 'location=wh-1', '--json']), {
      status: 1,
      code: 'LOCATION_NOT_FOUND',
      message: /no location with code wh-1 \(codes are case-sensitive\)/,
      json: true,
    });
    expect(sandbox.dump()).toBe(before);

    expectSuccess(await run(['key', 'revoke', key.id, '--yes']));
    await rejected(['key', 'update', key.id, '--quantity-cap', '1'], {
      status: 1,
      message: /is revoked and cannot be updated/,
    });
    await rejected(['key', 'update', '0123456789abcdef01234567', '--quantity-cap', '1'], {
      status: 1,
      message: /no key with id/,
    });
    await rejected(['key', 'update', 'sr_org_abc', '--quantity-cap', '1'], {
      status: 2,
      message: /must be a key id/,
    });
  });

  it('list: a VIEW column within 100 columns; --wide and --json show the whole view', async () => {
    const org = (await run(['org', 'create', '--name', 'Views', '--json'])).json.id;
    const store = sandbox.store();
    const view = {
      where: ['status=Draft,Active', 'customFields.region=north-distribution-centre'],
      hideFields: ['barcode', 'stock', 'customFields.cost'],
      quantityCap: 1_000_000_000,
    };
    await issueKey(store, {
      organizationId: org,
      name: 'Warehouse scanner integration for the north distribution centre (nightly sync)',
      expiresAt: Date.UTC(2027, 0, 31, 12),
      remaining: 5,
      view,
    });
    await issueKey(store, { organizationId: org, name: 'CI' });

    const listed = await run(['key', 'list', '--org', org]);
    expectSuccess(listed);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +PREFIX +NAME +TYPE +STATE +VIEW +EXPIRES +LAST USED$/);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(listed.stdout).toMatch(/ org +active +limited +2027-01-31 +never$/m);
    expect(listed.stdout).toMatch(/ CI +org +active +all +never +never$/m);

    const wide = await run(['key', 'list', '--org', org, '--wide']);
    expect(wide.stdout).toContain(
      'where status=Draft,Active & customFields.region=north-distribution-centre; hide barcode,stock,customFields.cost; cap 1000000000',
    );
    const json = await run(['key', 'list', '--org', org, '--json']);
    expect(json.json.keys.map((k: { view: unknown }) => k.view)).toEqual([view, null]);
  });

  it('update --help lists the view flags; completion offers them', async () => {
    const help = await run(['key', 'update', '--help']);
    expectSuccess(help);
    for (const flag of ['--where <EXPR>', '--hide-fields <LIST>', '--quantity-cap <N>']) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).toContain('--clear-view');
    const completion = await run(['completion', 'bash']);
    const line = completion.stdout
      .split('\n')
      .find((l) => l.trim().startsWith("'values|key update')"));
    expect(line).toContain("'--where'");
    expect(line).toContain("'--quantity-cap'");
    expect(line).not.toContain("'--clear-view'");
  });
});
