import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());
const run = sandbox.run;
const LOOPBACK = { env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1' } };

describe('stockroom webhook', () => {
  let webhookId: string;
  let secret: string;

  beforeAll(async () => {
    expectSuccess(await run(['org', 'create', '--name', 'Acme']));
  });

  it('creates a webhook for all events and prints its secret once', async () => {
    const created = await run(
      ['webhook', 'create', '--org', 'acme', '--url', 'http://127.0.0.1:9/hook', '--json'],
      LOOPBACK,
    );
    expectSuccess(created, { json: true });
    expect(created.json).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['item.created', 'item.updated', 'item.deleted'],
      enabled: true,
      disabledReason: null,
      secret: expect.stringMatching(/^whsec_/),
    });
    webhookId = created.json.id;
    secret = created.json.secret;

    const human = await run(
      [
        'webhook',
        'create',
        '--org',
        'acme',
        '--url',
        'http://127.0.0.1:9/other',
        '--events',
        'item.deleted',
      ],
      LOOPBACK,
    );
    expectSuccess(human);
    expect(human.stdout).toMatch(
      /^Created webhook [0-9a-f]{24} for http:\/\/127\.0\.0\.1:9\/other/,
    );
    expect(human.stdout).toMatch(/whsec_\S+/);
    expect(human.stdout).toContain('shown only once');
  });

  it('lists webhooks without their secrets', async () => {
    const listed = await run(['webhook', 'list', '--org', 'acme', '--json']);
    expectSuccess(listed, { json: true });
    expect(listed.json.webhooks).toHaveLength(2);
    expect(listed.stdout).not.toContain(secret);
    const human = await run(['webhook', 'list', '--org', 'acme']);
    expect(human.stdout).toMatch(/^ID\s+URL\s+EVENTS\s+STATE\s+CREATED/);
    expect(human.stdout).not.toContain('whsec_');
  });

  it('disables and enables a webhook, recording both in the audit log', async () => {
    const disabled = await run(['webhook', 'disable', webhookId, '--json']);
    expectSuccess(disabled, { json: true });
    expect(disabled.json).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/^disabled by cli:/),
    });
    const enabled = await run(['webhook', 'enable', webhookId]);
    expectSuccess(enabled);
    expect(enabled.stdout).toBe(`Webhook ${webhookId} is enabled.\n`);
    const audit = await run(['audit', '--org', 'acme', '--json']);
    const actions = audit.json.events.map((e: { action: string }) => e.action);
    expect(actions).toEqual([
      'organization.created',
      'webhook.created',
      'webhook.created',
      'webhook.disabled',
      'webhook.enabled',
    ]);
    expect(audit.stdout).not.toContain(secret);
  });

  it('lists deliveries, none yet', async () => {
    const listed = await run(['webhook', 'deliveries', webhookId, '--json']);
    expectSuccess(listed, { json: true });
    expect(listed.json).toMatchObject({ webhook: { id: webhookId }, deliveries: [] });
  });

  it('refuses private destinations unless WEBHOOK_ALLOWED_NETWORKS allows them, writing nothing', async () => {
    const before = sandbox.dump();
    for (const url of ['http://127.0.0.1:9/hook', 'http://169.254.169.254/', 'http://10.0.0.7/']) {
      const refused = await run(['webhook', 'create', '--org', 'acme', '--url', url, '--json']);
      expectFailure(refused, {
        status: 1,
        code: 'DESTINATION_REFUSED',
        json: true,
        message: /--url: .* address/,
      });
    }
    expect(sandbox.dump()).toBe(before);
  });

  it('refuses bad arguments with usage errors', async () => {
    expectFailure(
      await run([
        'webhook',
        'create',
        '--org',
        'acme',
        '--url',
        'https://x.example',
        '--events',
        'item.moved',
      ]),
      {
        status: 2,
        message: /unknown event "item.moved"; known: item.created, item.updated, item.deleted/,
      },
    );
    expectFailure(await run(['webhook', 'disable', 'nope']), {
      status: 2,
      message: /24 lowercase hex/,
    });
    expectFailure(await run(['webhook', 'enable', '0123456789abcdef01234567', '--json']), {
      status: 1,
      code: 'WEBHOOK_NOT_FOUND',
      json: true,
      message: /no webhook with id/,
    });
    expectFailure(await run(['webhook', 'create', '--org', 'acme', '--url', 'ftp://x.example/']), {
      status: 1,
      code: 'DESTINATION_REFUSED',
      message: /https:\/\/ or http:\/\//,
    });
  });

  it('delete asks on a terminal and needs --yes otherwise', async () => {
    const before = sandbox.dump();
    expectFailure(await run(['webhook', 'delete', webhookId]), {
      status: 2,
      message: new RegExp(
        `^stockroom: webhook delete would delete webhook ${webhookId} \\(https?://.*\\) \\(its delivery history goes with it; .*\\); stdin is not a terminal, so nothing was asked and nothing changed: pass --yes to confirm$`,
      ),
    });
    const declined = await run(['webhook', 'delete', webhookId], {
      stdin: { isTTY: true, lines: ['N'] },
    });
    expect(declined.status).toBe(1);
    expect(declined.stderr).toMatch(
      new RegExp(
        `^Delete webhook ${webhookId} \\(https?://.*\\)\\? Its delivery history goes with it; .* \\[y/N\\] stockroom: webhook delete cancelled; nothing was changed\n$`,
      ),
    );
    expect(sandbox.dump()).toBe(before);
  });

  it('deletes a webhook', async () => {
    const deleted = await run(['webhook', 'delete', webhookId, '--json'], {
      stdin: { isTTY: true, lines: ['yes'] },
    });
    expect(deleted.status).toBe(0);
    expect(deleted.stderr).toMatch(/^Delete webhook .*\[y\/N\] $/);
    expect(deleted.json).toEqual({ id: webhookId, deleted: true });
    const listed = await run(['webhook', 'list', '--org', 'acme', '--json']);
    expect(listed.json.webhooks).toHaveLength(1);
  });
});
