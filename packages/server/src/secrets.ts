import { readFileSync } from 'node:fs';
import type { Env } from './config.js';

/**
 * Settings that may hold a credential. Each can also come from a file named by `<NAME>_FILE`
 * (Docker and Kubernetes secrets, systemd credentials), so it never has to sit in the
 * environment of the process, where `ps e` and crash reports can show it.
 */
export const SECRET_SETTINGS = ['ADMIN_TOKEN', 'DATABASE_URL', 'REDIS_URL'] as const;

/** Thrown for a `<NAME>_FILE` that cannot be used; the caller wraps it as its own error type. */
export class SecretFileError extends Error {
  override name = 'SecretFileError';
}

/**
 * `env` with every `<NAME>_FILE` of SECRET_SETTINGS read into `<NAME>` (one trailing newline
 * removed, as `echo` and editors leave one). Setting both is refused: which one wins would be a
 * guess. Messages name the variable and the file, never the content.
 */
export function withSecretFiles(env: Env): Env {
  let resolved: Env | undefined;
  for (const name of SECRET_SETTINGS) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      throw new SecretFileError(
        `${name} and ${name}_FILE are both set: set only one (${name}_FILE names a file holding the value)`,
      );
    }
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new SecretFileError(
        `${name}_FILE names ${file}, which cannot be read (${reason}): point it at a readable file holding the value of ${name}`,
      );
    }
    const value = content.replace(/\r?\n$/, '');
    if (value.trim() === '') {
      throw new SecretFileError(
        `${name}_FILE names ${file}, which is empty: write the value of ${name} into it`,
      );
    }
    resolved ??= { ...env };
    resolved[name] = value;
    delete resolved[`${name}_FILE`];
  }
  return resolved ?? env;
}
