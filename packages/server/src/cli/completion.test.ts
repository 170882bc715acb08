import { afterAll, describe, expect, it } from 'vitest';
import { createCliSandbox, expectFailure, expectSuccess } from '../testing/cli-harness.js';
import { type CompletionNode, completionScript, completionTree, SHELLS } from './completion.js';
import { buildProgram } from './program.js';

const sandbox = createCliSandbox();
afterAll(() => sandbox.cleanup());

function nodes(node: CompletionNode): CompletionNode[] {
  return [node, ...node.commands.flatMap(nodes)];
}

/** The bash script's `case` line for one kind of word of one command path. */
function bashLine(script: string, kind: string, path: string[]): string {
  const key = `'${kind}|${path.join(' ')}')`;
  const line = script.split('\n').find((l) => l.trim().startsWith(key));
  return line ?? '';
}

describe('stockroom completion', () => {
  const tree = completionTree(buildProgram());
  const all = nodes(tree);

  it('walks the whole command tree, including the commands added last', () => {
    const paths = all.map((node) => node.path.join(' '));
    expect(paths).toEqual(
      expect.arrayContaining([
        '',
        'org delete',
        'key revoke',
        'key update',
        'items import',
        'webhook deliveries',
        'completion',
      ]),
    );
    expect(all.find((n) => n.path.join(' ') === 'completion')?.argumentChoices).toEqual([
      ...SHELLS,
    ]);
    expect(all.find((n) => n.path.join(' ') === 'items import')?.fileArgument).toBe(true);
  });

  it('bash: every command is offered after its parent, with every option of each', async () => {
    const run = await sandbox.run(['completion', 'bash']);
    expectSuccess(run);
    const script = run.stdout;
    for (const node of all) {
      const names = bashLine(script, 'names', node.path);
      for (const sub of node.commands) {
        expect(names, `${sub.path.join(' ')} after "${node.path.join(' ')}"`).toContain(
          `'${sub.path.at(-1)}'`,
        );
      }
      const options = bashLine(script, 'options', node.path);
      for (const option of node.options) {
        for (const name of option.names)
          expect(options, node.path.join(' ')).toContain(`'${name}'`);
      }
    }
    expect(bashLine(script, 'options', ['key', 'revoke'])).toContain("'--yes'");
    expect(bashLine(script, 'values', ['key', 'create'])).toContain("'--org'");
    expect(bashLine(script, 'values', ['key', 'create'])).not.toContain("'--json'");
    expect(bashLine(script, 'arguments', ['completion'])).toBe(
      "    'arguments|completion') printf '%s\\n' 'bash' 'zsh' 'fish' ;;",
    );
    expect(script).toMatch(/\ncomplete -o filenames -F _stockroom stockroom\n$/);
  });

  it('zsh and fish: every command path and command, with its description', async () => {
    for (const shell of ['zsh', 'fish'] as const) {
      const run = await sandbox.run(['completion', shell]);
      expectSuccess(run);
      for (const node of all.filter((n) => n.path.length > 0)) {
        const parent = node.path.slice(0, -1).join(' ');
        const name = node.path.at(-1) as string;
        if (shell === 'zsh') {
          expect(run.stdout).toContain(`'commands|${parent}') printf`);
          expect(run.stdout).toContain(`'${name}:${node.description.replace(/'/g, "'\\''")}'`);
        } else {
          expect(run.stdout).toContain(
            `complete -c stockroom -f -n '__stockroom_at \\'${parent}\\'' -a '${name}' -d '${node.description.replace(/'/g, "\\'")}'`,
          );
        }
      }
    }
    expect((await sandbox.run(['completion', 'zsh'])).stdout).toMatch(/^#compdef stockroom\n/);
  });

  it('a command added to the program is completed without touching completion.ts', () => {
    const program = buildProgram();
    program
      .command('frobnicate')
      .description('a command added later')
      .command('now')
      .requiredOption('--widget <N>', 'which widget');
    for (const shell of SHELLS) {
      const script = completionScript(program, shell);
      expect(script, shell).toContain('frobnicate');
      expect(script, shell).toContain('widget');
    }
    const bash = completionScript(program, 'bash');
    expect(bashLine(bash, 'names', ['frobnicate'])).toContain("'now'");
    expect(bashLine(bash, 'values', ['frobnicate', 'now'])).toContain("'--widget'");
  });

  it('--json wraps the script; an unknown shell is a usage error naming the choices', async () => {
    const run = await sandbox.run(['completion', 'fish', '--json']);
    expectSuccess(run, { json: true });
    expect(run.json).toEqual({ shell: 'fish', script: expect.stringContaining('complete -c') });
    expectFailure(await sandbox.run(['completion', 'powershell']), {
      status: 2,
      message: /Allowed choices are bash, zsh, fish/,
    });
    expectFailure(await sandbox.run(['completion']), {
      status: 2,
      message: /missing required argument 'SHELL'/,
    });
  });

  it('does not open the database', async () => {
    expectSuccess(await sandbox.run(['completion', 'bash']));
    expect(sandbox.dump()).toBeNull();
  });
});

describe('help marks required options', () => {
  it.each([
    [['key', 'create'], '--org <ORG>', ['--user <USER>', '--name <NAME>']],
    [['user', 'remove'], '--user <USER>', ['--yes']],
    [['items', 'import'], '--org <ORG>', ['--strict']],
  ])('%j', async (command, required, optional) => {
    const run = await sandbox.run([...command, '--help']);
    expectSuccess(run);
    const line = (flag: string) =>
      run.stdout
        .replace(/\n {10,}/g, ' ')
        .split('\n')
        .find((l) => l.trimStart().startsWith(flag)) ?? '';
    expect(line(required)).toMatch(/\(required\)$/);
    for (const flag of optional) expect(line(flag)).not.toContain('(required)');
  });
});
