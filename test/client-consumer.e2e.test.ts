import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DIR } from '../packages/client/src/testing/dist.js';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness.js';

/**
 * The package as an integrator gets it: `npm pack` of a fresh checkout (no dist/: the prepack
 * script builds it), installed offline into a fresh TypeScript project outside this repository,
 * type-checked with the packaged declarations, then run both as ESM (`import`) and as CommonJS
 * (`require`) against a real server.
 */

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const ROOT = path.resolve(CLIENT_DIR, '../..');

/**
 * packages/client as a clean checkout has it, in `into`: its files without dist/, beside the
 * base tsconfig it extends and the repository's installed devDependencies (tsup). Packing
 * a copy also keeps prepack from rebuilding the dist/ that other test files are reading.
 */
function cleanCheckout(into: string): string {
  const checkout = path.join(into, 'checkout');
  const copy = path.join(checkout, 'packages', 'client');
  const dist = path.join(CLIENT_DIR, 'dist');
  cpSync(CLIENT_DIR, copy, {
    recursive: true,
    filter: (source) => source !== dist && !source.includes(`${path.sep}node_modules`),
  });
  cpSync(path.join(ROOT, 'tsconfig.base.json'), path.join(checkout, 'tsconfig.base.json'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
  return copy;
}

/** The child npm must not inherit the settings of an `npm test` that may have started us. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.toLowerCase().startsWith('npm_')) env[name] = value;
  }
  return { ...env, ...extra };
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    outDir: 'out',
    types: [],
    lib: ['ES2022', 'DOM'],
    skipLibCheck: false,
  },
  include: ['src'],
};

// No @types/node in the consumer project: the little it needs of Node is declared here.
const NODE_GLOBALS = `declare const process: { env: Record<string, string | undefined> };\n`;

const ESM_SOURCE = `${NODE_GLOBALS}
import { NotFoundError, Stockroom, StockroomError, type InventoryItem } from '@stockroom/client';

const stockroom = new Stockroom({ baseUrl: process.env.API_URL, apiKey: process.env.API_KEY });
const item: { name: string; sku: string | null } = await stockroom.inventory.get(
  process.env.ITEM_ID ?? '',
  { fields: ['name', 'sku'] },
);
// @ts-expect-error the packaged types narrow to the selected fields
item.quantity;
const full: InventoryItem = await stockroom.inventory.get(process.env.ITEM_ID ?? '');
let walked = 0;
for await (const _ of stockroom.inventory.all({ limit: 7, fields: ['_id'] })) walked++;
const error = await stockroom.inventory.get('0'.repeat(24)).catch((e: unknown) => e);
const { response } = await stockroom.verifyKey().withResponse();
console.log(JSON.stringify({
  item,
  fullKeys: Object.keys(full).length,
  walked,
  notFound: error instanceof NotFoundError && error instanceof StockroomError,
  requestId: typeof response.requestId,
}));
`;

const CJS_SOURCE = `${NODE_GLOBALS}
import { RateLimitError, Stockroom, type ItemPage } from '@stockroom/client';

async function main(): Promise<void> {
  const stockroom = new Stockroom({ baseUrl: process.env.API_URL, apiKey: process.env.API_KEY });
  const page: ItemPage<{ _id: string }> = await stockroom.inventory.list({ limit: 3, fields: ['_id'] });
  const organization = await stockroom.organization.get();
  console.log(JSON.stringify({
    count: page.count,
    organization: organization._id,
    isClass: typeof RateLimitError === 'function',
    moduleSystem: typeof require === 'function' ? 'commonjs' : 'esm',
  }));
}
declare const require: unknown;
main();
`;

describe('the packed package in a fresh TypeScript project', () => {
  let server: TestServer;
  let dir: string;
  let project: string;
  let tarball: string;
  let packedFiles: string[];

  beforeAll(async () => {
    server = await startTestServer({ listen: true });
    dir = mkdtempSync(path.join(tmpdir(), 'stockroom-client-consumer-'));
    const checkout = cleanCheckout(dir);
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: checkout,
      env: cleanEnv(),
    });
    // The build's own output (tsup's log) comes first; npm's JSON report is the rest.
    const report = stdout.slice(stdout.search(/^\[/m));
    const [packed] = JSON.parse(report) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    if (!packed) throw new Error(`npm pack printed no package: ${stdout}`);
    tarball = path.join(dir, packed.filename);
    packedFiles = packed.files.map((file) => file.path).sort();

    project = path.join(dir, 'consumer');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
    );
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(project, 'src', 'esm.mts'), ESM_SOURCE);
    writeFileSync(path.join(project, 'src', 'cjs.cts'), CJS_SOURCE);
    // Offline: the package has no dependencies, so nothing needs the registry.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], {
      cwd: project,
      env: cleanEnv(),
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ships the build, the README and no runtime dependencies', async () => {
    expect(packedFiles).toEqual([
      'README.md',
      'dist/index.cjs',
      'dist/index.cjs.map',
      'dist/index.d.cts',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/index.js.map',
      'package.json',
    ]);
    const { stdout } = await run('npm', ['ls', '--all', '--json'], {
      cwd: project,
      env: cleanEnv(),
    });
    const tree = JSON.parse(stdout) as {
      dependencies: Record<string, { dependencies?: Record<string, unknown> }>;
    };
    expect(Object.keys(tree.dependencies)).toEqual(['@stockroom/client']);
    expect(tree.dependencies['@stockroom/client']?.dependencies ?? {}).toEqual({});
  });

  it('ends each bundle with one source map comment, naming the map it ships with', () => {
    const dist = path.join(project, 'node_modules', '@stockroom', 'client', 'dist');
    for (const file of ['index.js', 'index.cjs']) {
      const code = readFileSync(path.join(dist, file), 'utf8');
      expect(code.match(/^\/\/# sourceMappingURL=.*$/gm), file).toEqual([
        `//# sourceMappingURL=${file}.map`,
      ]);
    }
  });

  it('type-checks and compiles with the packaged declarations', async () => {
    const result = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(result.stdout).toBe('');
    expect('failed' in result).toBe(false);
  }, 60_000);

  it('runs with import (ESM)', async () => {
    const { stdout } = await run(process.execPath, [path.join(project, 'out', 'esm.mjs')], {
      cwd: project,
      env: cleanEnv({
        API_URL: server.apiUrl,
        API_KEY: server.demo.key,
        ITEM_ID: server.demo.itemId,
      }),
    });
    const result = JSON.parse(stdout);
    expect(Object.keys(result.item)).toEqual(['name', 'sku']);
    expect(result.fullKeys).toBe(12);
    expect(result.walked).toBe(await server.store.countItems(server.demo.organizationId));
    expect(result.notFound).toBe(true);
    expect(result.requestId).toBe('string');
  }, 60_000);

  it('runs with require (CommonJS)', async () => {
    const { stdout } = await run(process.execPath, [path.join(project, 'out', 'cjs.cjs')], {
      cwd: project,
      env: cleanEnv({ API_URL: server.apiUrl, API_KEY: server.demo.key }),
    });
    expect(JSON.parse(stdout)).toEqual({
      count: 3,
      organization: server.demo.organizationId,
      isClass: true,
      moduleSystem: 'commonjs',
    });
  }, 60_000);
});
