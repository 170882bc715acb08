import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

/**
 * The deployment kit's files, read as the tools that consume them would: Kubernetes manifests
 * against the API's schemas (kubernetes-models), the compose file's wiring, the Dockerfile's
 * stages and the systemd unit's hardening. deploy.e2e.test.ts runs the tools themselves
 * (systemd-analyze, docker-compose, nginx, the image's build steps).
 */
const DEPLOY = import.meta.dirname;
const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');

type Manifest = { kind: string; metadata: { name: string }; [key: string]: unknown };
// biome-ignore lint/suspicious/noExplicitAny: manifests are free-form until validated
type Any = any;

describe('deploy/kubernetes/stockroom.yaml', () => {
  const manifests = parseAllDocuments(read('kubernetes/stockroom.yaml')).map(
    (document) => document.toJS() as Manifest,
  );
  const byKind = (kind: string) => manifests.find((manifest) => manifest.kind === kind) as Any;

  it('is valid against the Kubernetes API schemas, kind by kind', () => {
    const models: Record<string, new (data: Any) => { validate(): void }> = {
      ConfigMap,
      Deployment,
      Service,
      PodDisruptionBudget,
    };
    expect(manifests.map((manifest) => manifest.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'PodDisruptionBudget',
      'Service',
    ]);
    for (const manifest of manifests) {
      const Model = models[manifest.kind] as (typeof models)[string];
      expect(() => new Model(manifest).validate(), manifest.kind).not.toThrow();
    }
    // The validator does fail: a wrong type is caught.
    const broken = structuredClone(byKind('Deployment'));
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken).validate()).toThrow(/replicas/);
  });

  it('probes /livez for liveness and /readyz for readiness, on the API port', () => {
    const deployment = byKind('Deployment');
    const container = deployment.spec.template.spec.containers[0];
    const apiPort = container.ports.find((port: Any) => port.name === 'api');
    expect(apiPort.containerPort).toBe(Number(byKind('ConfigMap').data.PORT));
    expect(container.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'api' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'api' });
    expect(container.startupProbe.httpGet.path).toBe('/livez');
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it('gives the drain time to finish before the pod is killed', () => {
    const config = byKind('ConfigMap').data;
    const grace = byKind('Deployment').spec.template.spec.terminationGracePeriodSeconds;
    const seconds = (value: string) => Number(/^(\d+)s$/.exec(value)?.[1]);
    expect(grace).toBeGreaterThan(seconds(config.SHUTDOWN_TIMEOUT));
    expect(seconds(config.SHUTDOWN_DELAY)).toBeGreaterThan(0);
  });

  it('runs as a non-root user with a read-only root filesystem and secrets from files', () => {
    const pod = byKind('Deployment').spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    for (const container of [...pod.containers, ...pod.initContainers]) {
      expect(container.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
    }
    const config = byKind('ConfigMap').data;
    expect(config.NODE_ENV).toBe('production');
    // Metrics on the pod network need the production opt-in, or the pod would not start.
    expect(config.METRICS_HOST).toBe('0.0.0.0');
    expect(config.ALLOW_PUBLIC_METRICS).toBe('true');
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'ADMIN_TOKEN']) {
      expect(config[name], `${name} must come from a secret file`).toBeUndefined();
    }
    const mount = pod.containers[0].volumeMounts.find((m: Any) => m.name === 'secrets');
    const files = pod.volumes
      .find((volume: Any) => volume.name === 'secrets')
      .secret.items.map((item: Any) => path.posix.join(mount.mountPath, item.path));
    expect(files).toEqual(
      expect.arrayContaining([config.DATABASE_URL_FILE, config.REDIS_URL_FILE]),
    );
  });

  it('selects the Deployment’s pods from the Service and the PodDisruptionBudget', () => {
    const labels = byKind('Deployment').spec.template.metadata.labels;
    expect(byKind('Deployment').spec.selector.matchLabels).toEqual(labels);
    expect(byKind('Service').spec.selector).toEqual(labels);
    expect(byKind('PodDisruptionBudget').spec.selector.matchLabels).toEqual(labels);
    expect(byKind('PodDisruptionBudget').spec.minAvailable).toBe(1);
    const ports = byKind('Deployment').spec.template.spec.containers[0].ports.map(
      (port: Any) => port.name,
    );
    for (const port of byKind('Service').spec.ports) expect(ports).toContain(port.targetPort);
  });
});

describe('deploy/compose/compose.yaml', () => {
  const compose = parse(read('compose/compose.yaml'), { merge: true }) as Any;
  const nginx = read('compose/nginx.conf');

  it('runs two instances, PostgreSQL, Redis and nginx, each instance waiting for its dependencies', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'migrate',
      'nginx',
      'postgres',
      'redis',
      'stockroom-1',
      'stockroom-2',
    ]);
    for (const name of ['stockroom-1', 'stockroom-2']) {
      const service = compose.services[name];
      expect(service.build.dockerfile).toBe('deploy/Dockerfile');
      expect(service.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
      expect(service.environment.DATABASE_URL_FILE).toBe('/run/secrets/database_url');
      expect(service.secrets).toEqual(['database_url']);
    }
    expect(compose.services.migrate.command).toEqual(['stockroom', 'migrate']);
    expect(compose.services.postgres.healthcheck.test).toContain('pg_isready');
    expect(compose.services.redis.healthcheck.test).toContain('ping');
  });

  it('declares every secret it uses, and init-secrets.sh writes them', () => {
    const used = new Set(
      Object.values(compose.services).flatMap((service: Any) => service.secrets ?? []),
    );
    const script = read('compose/init-secrets.sh');
    for (const secret of used) {
      expect(compose.secrets[secret as string].file).toBe(`./secrets/${secret}`);
      expect(script).toContain(`secrets/${secret}`);
    }
  });

  it('points nginx at the instances it runs, on their ports', () => {
    const environment = compose.services['stockroom-1'].environment;
    const upstreams = [...nginx.matchAll(/^\s*server ([\w-]+):(\d+) /gm)].map((m) => [m[1], m[2]]);
    const api = environment.PORT ?? '3000';
    const docs = environment.DOCS_PORT ?? '3001';
    expect(upstreams).toEqual([
      ['stockroom-1', api],
      ['stockroom-2', api],
      ['stockroom-1', docs],
      ['stockroom-2', docs],
    ]);
    expect(compose.services.nginx.volumes).toContain(
      './nginx.conf:/etc/nginx/conf.d/default.conf:ro',
    );
  });

  it('keeps the proxy settings of deploy/nginx/stockroom.conf (retries, buffers, headers)', () => {
    const directives = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => /^(proxy_|keepalive|large_client|map |default |"")/.test(line));
    expect(directives(nginx)).toEqual(directives(read('nginx/stockroom.conf')));
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in one stage and runs in another, as a non-root user, with a health check on /livez', () => {
    expect(stages).toHaveLength(2);
    const [build, runtime] = stages as [string, string];
    expect(build).toMatch(/^RUN sh deploy\/docker\/build\.sh \/src \/app$/m);
    expect(runtime).toMatch(/^COPY --from=build \/app \/app$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/livez/m);
    expect(runtime).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(runtime).toMatch(/NODE_ENV=production/);
    // Base images pinned to the Node.js major the project supports.
    for (const stage of stages) expect(stage).toMatch(/^node:20-bookworm-slim/);
  });
});

describe('deploy/systemd/stockroom.service', () => {
  const unit = read('systemd/stockroom.service');
  const settings = new Map<string, string[]>();
  for (const line of unit.split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line);
    if (match)
      settings.set(match[1] as string, [
        ...(settings.get(match[1] as string) ?? []),
        match[2] as string,
      ]);
  }

  it('has the hardening options', () => {
    const expected: Record<string, string> = {
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ReadWritePaths: '/var/lib/stockroom',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      DynamicUser: 'yes',
      CapabilityBoundingSet: '',
      RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
    };
    for (const [name, value] of Object.entries(expected)) {
      expect(settings.get(name), name).toContain(value);
    }
    expect(settings.get('SystemCallFilter')).toContain('@system-service');
  });

  it('stops with SIGTERM and waits longer than the default SHUTDOWN_TIMEOUT', () => {
    expect(settings.get('KillSignal')).toEqual(['SIGTERM']);
    const stop = Number(/^(\d+)s$/.exec(settings.get('TimeoutStopSec')?.[0] ?? '')?.[1]);
    expect(stop).toBeGreaterThan(30);
    const env = read('systemd/stockroom.env');
    expect(env).not.toMatch(/^(ADMIN_TOKEN|REDIS_URL_FILE)=.*secret/m);
    expect(settings.get('StateDirectory')).toEqual(['stockroom']);
  });
});
