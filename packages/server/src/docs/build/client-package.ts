import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLIENT_MANIFEST,
  CLIENT_TARBALL,
  type ClientPackageManifest,
  DOWNLOADS_DIR,
} from '../downloads.js';

/**
 * `node dist/docs/build/client-package.js [--force]`: packs the client library
 * (packages/client, `@stockroom/client`) into `dist/downloads/stockroom-client.tgz`, which the
 * docs host serves at `/downloads/stockroom-client.tgz` (docs/downloads.ts). It lives in the
 * server's dist/, so a server installed from its own package serves it too. The last step of
 * `npm run build -w stockroom`:
 *
 * - the client's dist/ is built first (`npm run build -w @stockroom/client`) when it is missing
 *   or older than the client's sources, so `npm start`, `npm pack -w stockroom` and the Docker
 *   build always pack the current client;
 * - the tarball is `npm pack`'s own (the files the client's package.json lists), made again only
 *   when what it packs changed (a fingerprint kept in `stockroom-client.json`).
 */

const PACKAGE_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const REPOSITORY = path.join(PACKAGE_DIR, '../..');
const CLIENT_DIR = path.join(REPOSITORY, 'packages', 'client');

function filesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return entries
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

/** The newest modification time among what the client's build reads. */
function newestSource(): number {
  const inputs = [
    ...filesUnder(path.join(CLIENT_DIR, 'src')).filter((file) => !/\.test(-d)?\.ts$/.test(file)),
    ...['package.json', 'tsup.config.ts', 'tsconfig.build.json'].map((name) =>
      path.join(CLIENT_DIR, name),
    ),
    path.join(REPOSITORY, 'tsconfig.base.json'),
  ];
  return Math.max(...inputs.map((file) => statSync(file).mtimeMs));
}

function builtAt(): number {
  const outputs = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'].map((name) =>
    path.join(CLIENT_DIR, 'dist', name),
  );
  try {
    return Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  } catch {
    return -1;
  }
}

/** This environment without what `npm run` puts in it (a workspace, a prefix): npm as run by hand. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && name !== 'INIT_CWD') env[name] = value;
  }
  return { ...env, NO_UPDATE_NOTIFIER: '1' };
}

/** A hash of what the tarball holds: the client's package.json, README and dist/. */
function fingerprint(): string {
  const hash = createHash('sha256');
  const inputs = [
    path.join(CLIENT_DIR, 'package.json'),
    path.join(CLIENT_DIR, 'README.md'),
    ...filesUnder(path.join(CLIENT_DIR, 'dist')),
  ];
  for (const file of inputs) {
    const bytes = readFileSync(file);
    hash.update(`${path.relative(CLIENT_DIR, file)}\n${bytes.length}\n`).update(bytes);
  }
  return hash.digest('base64url');
}

function readManifest(): ClientPackageManifest | null {
  try {
    return JSON.parse(
      readFileSync(path.join(DOWNLOADS_DIR, CLIENT_MANIFEST), 'utf8'),
    ) as ClientPackageManifest;
  } catch {
    return null;
  }
}

function main(): void {
  const force = process.argv.includes('--force');
  if (force || builtAt() < newestSource()) {
    execFileSync('npm', ['run', 'build', '--silent', '-w', '@stockroom/client'], {
      cwd: REPOSITORY,
      env: npmEnv(),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const print = fingerprint();
  const current = readManifest();
  const tarball = path.join(DOWNLOADS_DIR, CLIENT_TARBALL);
  let tarballExists = false;
  try {
    tarballExists = statSync(tarball).isFile();
  } catch {}
  if (!force && tarballExists && current?.fingerprint === print) return;

  // Packed next to the result, then renamed over it: a server reading it never sees half a file.
  mkdirSync(DOWNLOADS_DIR, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), 'stockroom-client-pack-'));
  try {
    // Scripts off: dist/ is current (above), and prepack would build it again.
    const stdout = execFileSync(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      { cwd: CLIENT_DIR, env: npmEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; version: string }>;
    if (!packed) throw new Error(`npm pack reported no package: ${stdout}`);
    const staged = path.join(DOWNLOADS_DIR, `.${CLIENT_TARBALL}.${process.pid}`);
    writeFileSync(staged, readFileSync(path.join(work, packed.filename)));
    renameSync(staged, tarball);
    const manifest: ClientPackageManifest = { fingerprint: print, version: packed.version };
    writeFileSync(
      path.join(DOWNLOADS_DIR, CLIENT_MANIFEST),
      `${JSON.stringify(manifest, null, 2)}\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
