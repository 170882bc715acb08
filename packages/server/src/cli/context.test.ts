import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'stockroom-cli-context-'));
function secretFile(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('the database of a CLI command', () => {
  it('CLI commands read DATABASE_URL_FILE, and say what is wrong with it', async () => {
    const database = path.join(dir, 'cli.db');
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      cwd: dir,
    };
    const env = { DATABASE_URL_FILE: secretFile('cli-url', `${database}\n`) };
    expect(await run(['org', 'create', '--name', 'Files Inc'], { ...io, env })).toBe(0);
    expect(await run(['org', 'list', '--json'], { ...io, env })).toBe(0);
    expect(out.join('')).toContain('Files Inc');
    const broken = { DATABASE_URL_FILE: path.join(dir, 'absent') };
    expect(await run(['org', 'list'], { ...io, env: broken })).not.toBe(0);
    expect(err.join('')).toContain('DATABASE_URL_FILE names');
  });
});
