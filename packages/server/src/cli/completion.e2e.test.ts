import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, createCliSandbox, expectSuccess } from '../testing/cli-harness.js';

/**
 * What only real shells and a real terminal show: the completion scripts the binary prints
 * parse (`bash -n`, `zsh -n`, `fish -n`) and complete what they should, and a destructive
 * command asks on a terminal and exits on its own once answered. zsh, fish and util-linux's
 * `script` are optional on a development machine: a test that needs one that is missing is
 * skipped, saying so.
 */
const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

function has(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

function sh(program: string, args: string[], input?: string) {
  const result = spawnSync(program, args, {
    cwd: sandbox.dir,
    input,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: sandbox.dbPath },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const scripts: Record<string, string> = {};

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const run = await sandbox.runBinary(['completion', shell]);
    expectSuccess(run);
    scripts[shell] = sandbox.file(`stockroom.${shell}`, run.stdout);
  }
});

describe('stockroom completion, in real shells', () => {
  it('bash: the script parses', () => {
    expect(sh('bash', ['-n', scripts.bash as string])).toMatchObject({ status: 0, stderr: '' });
  });

  it.skipIf(!has('zsh'))('zsh: the script parses', () => {
    expect(sh('zsh', ['-n', scripts.zsh as string])).toMatchObject({ status: 0, stderr: '' });
  });

  it.skipIf(!has('fish'))('fish: the script parses', () => {
    expect(sh('fish', ['-n', scripts.fish as string])).toMatchObject({ status: 0, stderr: '' });
  });

  it('bash: completes commands, subcommands, options, choices and files', () => {
    sandbox.file('catalogue.csv', 'name\n');
    const cases: Array<[string[], string]> = [
      [
        ['stockroom', ''],
        'serve migrate org user key items db backup audit webhook location sync-secret completion',
      ],
      [['stockroom', 'key', ''], 'create list update disable enable revoke rotate'],
      [['stockroom', '--json', 'key', 're'], 'revoke'],
      [
        ['stockroom', '--database', 'key', ''],
        'serve migrate org user key items db backup audit webhook location sync-secret completion',
      ],
      [['stockroom', 'key', 'revoke', '--y'], '--yes'],
      [['stockroom', 'completion', ''], 'bash zsh fish'],
      [['stockroom', 'items', 'import', '--org', 'acme', 'cata'], 'catalogue.csv'],
      [['stockroom', 'key', 'create', '--org', ''], ''],
    ];
    const lines = cases.map(
      ([words]) =>
        `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _stockroom; echo "\${COMPREPLY[*]}"`,
    );
    const result = sh('bash', ['-c', `source ${scripts.bash}\n${lines.join('\n')}`]);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').slice(0, -1)).toEqual(cases.map(([, expected]) => expected));
  });

  it.skipIf(!has('fish'))('fish: completes subcommands with descriptions, and options', () => {
    const result = sh('fish', [
      '-c',
      `source ${scripts.fish}; complete -C 'stockroom key re'; echo ---; complete -C 'stockroom org delete --'`,
    ]);
    expect(result.stderr).toBe('');
    const [subcommands, options] = result.stdout.split('---\n');
    expect(subcommands).toMatch(/^revoke\trevoke a key for good/);
    expect(options).toContain('--yes\t');
    expect(options).toContain('--confirm\t');
    expect(options).toContain('--json\t');
  });
});

describe('confirmation through a real terminal', () => {
  it.skipIf(!has('script'))(
    'key revoke asks on the terminal, takes the answer, and the process exits on its own',
    async () => {
      expectSuccess(await sandbox.runBinary(['org', 'create', '--name', 'Acme']));
      const created = await sandbox.runBinary(['key', 'create', '--org', 'acme', '--json']);
      const { id, prefix } = created.json;
      // `script` gives the command a terminal of its own and types what it reads on stdin.
      const onTerminal = (answer: string) =>
        sh(
          'script',
          ['-qec', `${process.execPath} ${BIN} key revoke ${prefix}`, '/dev/null'],
          `${answer}\n`,
        );
      const declined = onTerminal('n');
      expect(declined.status).toBe(1);
      expect(declined.stdout).toContain(`Revoke key ${id} (${prefix}, "Organization key")?`);
      expect(declined.stdout).toContain('stockroom: key revoke cancelled; nothing was changed');
      expect((await sandbox.store().getApiKey(id))?.revokedAt).toBeNull();

      // The same answer piped (no terminal) is not taken as consent.
      const piped = sh(process.execPath, [BIN, 'key', 'revoke', prefix], 'y\n');
      expect(piped.status).toBe(2);
      expect(piped.stderr).toMatch(/pass --yes to confirm\n$/);

      const confirmed = onTerminal('y');
      expect(confirmed.status).toBe(0);
      expect(confirmed.stdout).toContain(`Revoked key ${id}`);
      expect((await sandbox.store().getApiKey(id))?.revokedAt).not.toBeNull();
    },
  );
});
