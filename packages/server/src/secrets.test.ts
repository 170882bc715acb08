import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { SecretFileError, withSecretFiles } from './secrets.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-secrets-'));
function secretFile(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}
const TOKEN = 'x'.repeat(40);

describe('withSecretFiles', () => {
  it('reads NAME_FILE into NAME, without the trailing newline', () => {
    const env = withSecretFiles({
      ADMIN_TOKEN_FILE: secretFile('token', `${TOKEN}\n`),
      REDIS_URL_FILE: secretFile('redis', 'redis://:pw@cache:6379\r\n'),
      DATABASE_URL_FILE: secretFile('db', 'postgres://app:pw@db/stockroom'),
    });
    expect(env).toEqual({
      ADMIN_TOKEN: TOKEN,
      REDIS_URL: 'redis://:pw@cache:6379',
      DATABASE_URL: 'postgres://app:pw@db/stockroom',
    });
  });

  it('leaves an environment without NAME_FILE as it is', () => {
    const env = { ADMIN_TOKEN: TOKEN, OTHER_FILE: '/nowhere' };
    expect(withSecretFiles(env)).toBe(env);
  });

  it('refuses NAME and NAME_FILE together, naming both', () => {
    expect(() =>
      withSecretFiles({ ADMIN_TOKEN: TOKEN, ADMIN_TOKEN_FILE: secretFile('t2', TOKEN) }),
    ).toThrow('ADMIN_TOKEN and ADMIN_TOKEN_FILE are both set: set only one');
  });

  it('names the variable and the file when the file is missing or empty, never the content', () => {
    const missing = path.join(dir, 'missing');
    expect(() => withSecretFiles({ REDIS_URL_FILE: missing })).toThrow(
      `REDIS_URL_FILE names ${missing}, which cannot be read (ENOENT)`,
    );
    const empty = secretFile('empty', '\n');
    expect(() => withSecretFiles({ DATABASE_URL_FILE: empty })).toThrow(SecretFileError);
    expect(() => withSecretFiles({ DATABASE_URL_FILE: empty })).toThrow(
      `DATABASE_URL_FILE names ${empty}, which is empty`,
    );
  });
});

describe('secrets from files in the configuration and the CLI', () => {
  it('loadConfig takes ADMIN_TOKEN_FILE, and its problems are configuration errors', () => {
    expect(loadConfig({ ADMIN_TOKEN_FILE: secretFile('admin', TOKEN) }).adminToken).toBe(TOKEN);
    expect(() => loadConfig({ ADMIN_TOKEN_FILE: path.join(dir, 'none') })).toThrow(ConfigError);
    // A short token from a file is judged like one from the environment.
    expect(() => loadConfig({ ADMIN_TOKEN_FILE: secretFile('short', 'short') })).toThrow(
      /ADMIN_TOKEN must be 32 to 512/,
    );
  });

  it('a flag still wins over DATABASE_URL_FILE', () => {
    const config = loadConfig(
      { DATABASE_URL_FILE: secretFile('url', 'postgres://a@db/x') },
      { DATABASE_URL: 'postgres://b@db/y' },
    );
    expect(config.databaseUrl).toBe('postgres://b@db/y');
  });
});
