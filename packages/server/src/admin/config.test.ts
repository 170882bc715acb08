import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

/** ADMIN_TOKEN, ADMIN_PORT and ADMIN_HOST (config.ts), beside the admin API they configure. */

const TOKEN = 'a'.repeat(32);

describe('admin settings', () => {
  it('are off by default: no token, port 3002 and loopback kept for when it is set', () => {
    expect(loadConfig({})).toMatchObject({
      adminToken: null,
      adminPort: 3002,
      adminHost: '127.0.0.1',
    });
    expect(loadConfig({ ADMIN_TOKEN: '' }).adminToken).toBeNull();
  });

  it('read ADMIN_TOKEN, ADMIN_PORT and ADMIN_HOST', () => {
    const token = `${'Zz9-_.~'.repeat(10)}`;
    expect(
      loadConfig({ ADMIN_TOKEN: token, ADMIN_PORT: '4000', ADMIN_HOST: '0.0.0.0' }),
    ).toMatchObject({
      adminToken: token,
      adminPort: 4000,
      adminHost: '0.0.0.0',
    });
    expect(loadConfig({ ADMIN_TOKEN: TOKEN }).adminToken).toBe(TOKEN);
  });

  it.each([
    ['31 characters', 'b'.repeat(31), /32 to 512 visible ASCII characters.*31 characters long/],
    ['513 characters', 'b'.repeat(513), /513 characters long/],
    ['a space', `${'b'.repeat(20)} ${'b'.repeat(20)}`, /contains a space or another character/],
    ['a non-ASCII character', `${'b'.repeat(40)}é`, /contains a space or another character/],
  ])('refuse a token with %s, without quoting it', (_label, token, message) => {
    let caught: unknown;
    try {
      loadConfig({ ADMIN_TOKEN: token });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain(token);
  });

  it('refuse an ADMIN_PORT that is not a port, or that another host uses while it is on', () => {
    expect(() => loadConfig({ ADMIN_PORT: 'admin' })).toThrow(/ADMIN_PORT must be a port number/);
    expect(() => loadConfig({ ADMIN_TOKEN: TOKEN, ADMIN_PORT: '3000' })).toThrow(
      /ADMIN_PORT must differ from PORT, DOCS_PORT and METRICS_PORT.*equals PORT \(3000\)/,
    );
    expect(() => loadConfig({ ADMIN_TOKEN: TOKEN, DOCS_PORT: '3002' })).toThrow(
      /equals DOCS_PORT \(3002\)/,
    );
    expect(() => loadConfig({ ADMIN_TOKEN: TOKEN, METRICS_PORT: '3002' })).toThrow(
      /equals METRICS_PORT \(3002\)/,
    );
    // Off, the admin port is never opened, so it may equal another (existing setups keep working).
    expect(loadConfig({ PORT: '3002', DOCS_PORT: '3003' }).port).toBe(3002);
    // 0 means "any free port", chosen apart from the others at start.
    expect(
      loadConfig({ ADMIN_TOKEN: TOKEN, PORT: '0', DOCS_PORT: '0', ADMIN_PORT: '0' }).adminPort,
    ).toBe(0);
  });
});
