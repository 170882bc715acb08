import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The deployment kit run by the tools that consume it: systemd-analyze on the unit,
 * docker-compose on the compose file, Debian's nginx on the compose nginx configuration, and the
 * image's build steps (deploy/docker/build.sh) in a clean copy of the repository, whose result
 * is then started as the image's CMD with the image's ENV and checked with its HEALTHCHECK. No
 * Docker engine runs here; these are the parts of the image that do not need one.
 */
const DEPLOY = import.meta.dirname;
const ROOT = path.dirname(DEPLOY);
const scratch = mkdtempSync(path.join(tmpdir(), 'stockroom-deploy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

describe('deploy/systemd/stockroom.service', () => {
  // The unit with its paths pointed at this checkout (verify checks that ExecStart exists).
  const unit = path.join(scratch, 'stockroom.service');
  writeFileSync(
    unit,
    readFileSync(path.join(DEPLOY, 'systemd/stockroom.service'), 'utf8')
      .replace(
        '/usr/bin/node /opt/stockroom/node_modules/stockroom/bin/stockroom.js',
        `${process.execPath} ${path.join(ROOT, 'packages/server/bin/stockroom.js')}`,
      )
      .replace('/etc/stockroom/stockroom.env', path.join(DEPLOY, 'systemd/stockroom.env')),
  );

  it('passes systemd-analyze verify without a warning', () => {
    const result = run('systemd-analyze', ['verify', unit]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('is rated well hardened by systemd-analyze security', () => {
    const result = run('systemd-analyze', ['security', '--offline=true', unit]);
    const exposure = Number(/Overall exposure level for [^:]+: ([\d.]+)/.exec(result.stdout)?.[1]);
    // 0 is fully locked down, 10 unprotected; systemd calls up to 2.0 "OK".
    expect(exposure).toBeLessThanOrEqual(2);
  });
});

describe('deploy/compose', () => {
  const dir = path.join(scratch, 'compose');
  mkdirSync(dir);
  for (const file of ['compose.yaml', 'nginx.conf', 'init-secrets.sh']) {
    copyFileSync(path.join(DEPLOY, 'compose', file), path.join(dir, file));
  }

  it('init-secrets.sh writes the secrets once, readable by their owner only', () => {
    const first = run('sh', [path.join(dir, 'init-secrets.sh')]);
    expect(first.status).toBe(0);
    const password = readFileSync(path.join(dir, 'secrets/postgres_password'), 'utf8').trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(readFileSync(path.join(dir, 'secrets/database_url'), 'utf8')).toBe(
      `postgres://stockroom:${password}@postgres:5432/stockroom\n`,
    );
    expect(statSync(path.join(dir, 'secrets')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'secrets/database_url')).mode & 0o777).toBe(0o600);
    expect(run('sh', [path.join(dir, 'init-secrets.sh')]).stdout).toContain('left as it is');
    expect(readFileSync(path.join(dir, 'secrets/postgres_password'), 'utf8').trim()).toBe(password);
  });

  it('is a valid compose file (docker-compose config)', () => {
    const result = run('docker-compose', ['-f', 'compose.yaml', 'config'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // Both instances resolved with the shared settings of the x-stockroom block.
    expect(result.stdout.match(/DATABASE_URL_FILE: \/run\/secrets\/database_url/g)).toHaveLength(3);
  });

  it('gives nginx a configuration it accepts (nginx -t)', () => {
    const prefix = path.join(scratch, 'nginx');
    mkdirSync(prefix);
    chmodSync(prefix, 0o755);
    // The compose services' names resolve only inside compose: here they are this machine.
    const site = readFileSync(path.join(dir, 'nginx.conf'), 'utf8').replace(
      /server stockroom-\d:/g,
      'server 127.0.0.1:',
    );
    writeFileSync(path.join(prefix, 'site.conf'), site);
    writeFileSync(
      path.join(prefix, 'nginx.conf'),
      `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log;\nevents {}\nhttp {\n  access_log off;\n  proxy_temp_path ${prefix}/proxy;\n  client_body_temp_path ${prefix}/body;\n  include ${prefix}/site.conf;\n}\n`,
    );
    const result = run('/usr/sbin/nginx', [
      '-t',
      '-p',
      prefix,
      '-e',
      `${prefix}/error.log`,
      '-c',
      `${prefix}/nginx.conf`,
    ]);
    expect(result.stderr).toContain('syntax is ok');
    expect(result.status).toBe(0);
  });
});

/** The final stage's ENV of the Dockerfile, continuation lines joined. */
function imageEnv(dockerfile: string): Record<string, string> {
  const runtime = dockerfile.split(/^FROM /m).at(-1) as string;
  const joined = runtime.replace(/\\\n\s*/g, ' ');
  const line = /^ENV (.*)$/m.exec(joined)?.[1] ?? '';
  return Object.fromEntries(
    [...line.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1] as string, match[2] as string]),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('deploy/Dockerfile', () => {
  it('builds with its own steps in a clean copy of the repository, and the result runs and is healthy', async () => {
    const dockerfile = readFileSync(path.join(DEPLOY, 'Dockerfile'), 'utf8');
    // The build context: the repository's files, nothing installed or built.
    const source = path.join(scratch, 'src');
    mkdirSync(source);
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    for (const file of files) {
      mkdirSync(path.dirname(path.join(source, file)), { recursive: true });
      copyFileSync(path.join(ROOT, file), path.join(source, file));
    }
    const app = path.join(scratch, 'app');
    const step = /^RUN sh deploy\/docker\/build\.sh \/src \/app$/m;
    expect(dockerfile).toMatch(step);
    const built = run('sh', [path.join(source, 'deploy/docker/build.sh'), source, app], {
      cwd: source,
    });
    expect(built.status, built.stderr.slice(-4000)).toBe(0);

    // The runtime stage: its ENV, /data a directory of ours, the CMD from PATH.
    const data = path.join(scratch, 'data');
    mkdirSync(data);
    const [port, docsPort] = [await freePort(), await freePort()];
    const env = imageEnv(dockerfile);
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    // DATABASE_URL unset: DATABASE_URL_FILE alone must be possible (both are refused).
    expect(env.DATABASE_URL).toBeUndefined();
    expect(/^WORKDIR \/app$/m.test(dockerfile.split(/^FROM /m).at(-1) as string)).toBe(true);
    const runtimeEnv: NodeJS.ProcessEnv = {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DOCS_PORT: String(docsPort),
      PATH: `${path.join(app, 'node_modules/.bin')}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: data,
    };
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
    expect(cmd).toEqual(['stockroom', 'serve']);
    // WORKDIR /app: the database is ./data/stockroom.db under it.
    const server = spawn(cmd[0] as string, cmd.slice(1), { cwd: app, env: runtimeEnv });
    let output = '';
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (output.includes('stockroom started')) resolve();
        };
        server.stdout.on('data', check);
        server.on('exit', (code) => reject(new Error(`serve exited (${code}):\n${output}`)));
      });
      // The HEALTHCHECK command, as Docker would run it inside the container.
      const healthcheck = JSON.parse(
        /^\s*CMD (\[.*\])$/m.exec(dockerfile.split('HEALTHCHECK')[1] as string)?.[1] ?? '[]',
      ) as string[];
      expect(healthcheck[0]).toBe('node');
      const healthy = run(process.execPath, healthcheck.slice(1), { env: runtimeEnv });
      expect(healthy.status).toBe(0);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect(existsSync(path.join(app, 'data/stockroom.db'))).toBe(true);
      // The package as installed: production dependencies only.
      expect(() =>
        execFileSync(process.execPath, ['-e', "require.resolve('vitest')"], { cwd: app }),
      ).toThrow();
    } finally {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
    }
    // And unhealthy once it is gone.
    const healthcheck = JSON.parse(
      /^\s*CMD (\[.*\])$/m.exec(dockerfile.split('HEALTHCHECK')[1] as string)?.[1] ?? '[]',
    ) as string[];
    expect(run(process.execPath, healthcheck.slice(1), { env: runtimeEnv }).status).toBe(1);
  }, 1_800_000);
});
