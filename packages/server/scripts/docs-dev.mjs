#!/usr/bin/env node
// The docs writer's loop: builds, starts `stockroom serve` (the arguments given here are passed
// on), and on every change to docs/ or to the docs host's sources builds again and restarts the
// server. A build that fails (an invalid page) is reported and the running server kept.
//
//   npm run docs:dev                      from the repository root
//   npm run docs:dev -- --docs-port 4001  with serve's flags
import { spawn, spawnSync } from 'node:child_process';
import { watch } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const WATCHED = [
  fileURLToPath(new URL('../../../docs', import.meta.url)),
  fileURLToPath(new URL('../src/docs', import.meta.url)),
];
const BIN = fileURLToPath(new URL('../bin/stockroom.js', import.meta.url));

function build() {
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: PACKAGE_DIR,
    stdio: 'inherit',
  });
  return result.status === 0;
}

let server = null;

function start() {
  server = spawn(process.execPath, [BIN, 'serve', ...process.argv.slice(2)], {
    // Where `npm run` was typed, as for `npm start`: the default database is ./data there.
    cwd: process.env.INIT_CWD ?? process.cwd(),
    stdio: 'inherit',
    env: { ...process.env, SHUTDOWN_DELAY: '0s' },
  });
}

async function stop() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

let timer = null;
let running = Promise.resolve();

function changed() {
  clearTimeout(timer);
  // Editors write a file in several steps: one rebuild for a burst of events.
  timer = setTimeout(() => {
    running = running.then(async () => {
      process.stdout.write('\ndocs: change seen, building…\n');
      if (!build()) {
        process.stdout.write('docs: the build failed; the server keeps the last good site\n');
        return;
      }
      await stop();
      start();
    });
  }, 200);
}

if (!build()) process.exit(1);
start();
for (const dir of WATCHED) watch(dir, { recursive: true }, changed);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => stop().then(() => process.exit(0)));
}
