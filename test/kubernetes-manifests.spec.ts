import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import {
  HorizontalPodAutoscaler,
  type IHorizontalPodAutoscaler,
} from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job, type IJob } from 'kubernetes-models/batch/v1/Job';
import { Ingress, type IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import {
  PodDisruptionBudget,
  type IPodDisruptionBudget,
} from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import * as ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';
import { parseStartCommand } from '../bench/lib/processes';
import { type AppConfig, loadConfig } from '../src/config/app-config';
import { CONSOLE_PATH } from '../src/console/console-static';
import { HealthController } from '../src/health/health.controller';
import { MetricsController } from '../src/health/metrics.controller';
import { describeIf } from './support/skip';

// deploy/kubernetes as a cluster would get it: every kustomization rendered by kustomize (the one
// built into kubectl), every object checked against the Kubernetes API schema kubernetes-models
// embeds (1.33.0), fields included, and the gateway's side of each object (command, port, probes,
// variables, the egress its settings need) read from the gateway itself rather than restated here.
const ROOT = join(__dirname, '..');
const MANIFESTS = join(ROOT, 'deploy', 'kubernetes');
const SECRET_EXAMPLE = join(MANIFESTS, 'secret.env.example');

const kubectlInstalled = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const describeWithKustomize = describeIf(
  kubectlInstalled,
  'kubectl is not installed; its built-in kustomize renders the manifests',
);

// The kinds the manifests use, each with the schema of its GA API version.
const MODELS = [
  ServiceAccount,
  ConfigMap,
  Service,
  Deployment,
  Job,
  PodDisruptionBudget,
  HorizontalPodAutoscaler,
  NetworkPolicy,
  Ingress,
] as unknown as Array<{ apiVersion: string; kind: string; new (data: object): { validate(): void } }>;

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

type Of<T> = T & KubeObject;

/** Every folder holding a kustomization (components are rendered through those that use them). */
function kustomizations(folder: string): string[] {
  const found: string[] = [];
  const file = join(folder, 'kustomization.yaml');
  if (existsSync(file) && (parse(readFileSync(file, 'utf8')) as { kind?: string }).kind !== 'Component') {
    found.push(folder);
  }
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...kustomizations(join(folder, entry.name)));
  }
  return found;
}

function render(folder: string): KubeObject[] {
  const text = execFileSync('kubectl', ['kustomize', folder], { encoding: 'utf8' });
  return parseAllDocuments(text).map((document) => document.toJS() as KubeObject);
}

function named(object: KubeObject): string {
  return `${object.kind} ${object.metadata.name}`;
}

function ofKind<T>(objects: KubeObject[], kind: string): Array<Of<T>> {
  return objects.filter((object) => object.kind === kind) as Array<Of<T>>;
}

function only<T>(objects: KubeObject[], kind: string): Of<T> {
  const found = ofKind<T>(objects, kind);
  expect(found.map(named)).toHaveLength(1);
  return found[0];
}

/**
 * What the declarations kubernetes-models generates from the same schema refuse in `objects`,
 * unknown fields at any depth above all: the schema's validation lets them through, as Kubernetes'
 * own schemas do (the API server refuses them under strict field validation), while TypeScript
 * refuses an object literal's every property its type does not declare.
 */
function refusedByDeclarations(objects: Array<{ source: string; object: KubeObject }>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es5.d.ts'],
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  // Files that exist only here, beside the tests, so kubernetes-models resolves from node_modules.
  const files = new Map(
    objects.map(({ source, object }, index) => [
      join(ROOT, 'test', `rendered-${index}.ts`),
      {
        about: `${source}: ${named(object)}`,
        text:
          `import type { I${object.kind} as Declared } from 'kubernetes-models/${object.apiVersion}/${object.kind}';\n` +
          `export const object: Declared = ${JSON.stringify(object)};\n`,
      },
    ]),
  );
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) => {
    const file = files.get(name);
    return file
      ? ts.createSourceFile(name, file.text, version)
      : getSourceFile.call(host, name, version, ...rest);
  };
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const file = diagnostic.file?.fileName ?? '';
    return `${files.get(file)?.about ?? file}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

/** The path the gateway serves a handler at, as Nest routes it; GET only (what a probe sends). */
function getRoute(controller: new (...args: never[]) => object, handler: string): string {
  const method = (controller.prototype as Record<string, object>)[handler];
  if (Reflect.getMetadata(METHOD_METADATA, method) !== RequestMethod.GET) {
    throw new Error(`${controller.name}.${handler} is not a GET route`);
  }
  const segments = [
    Reflect.getMetadata(PATH_METADATA, controller),
    Reflect.getMetadata(PATH_METADATA, method),
  ];
  return `/${(segments as string[]).filter((segment) => segment !== '/' && segment !== '').join('/')}`;
}

const LIVENESS = getRoute(HealthController, 'live');
const READINESS = getRoute(HealthController, 'ready');
const METRICS = getRoute(MetricsController, 'render');

const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const production = parseStartCommand(scripts['start:prod']);
// `npm run db:migrate` runs the CLI's command after building: what follows its `exec`.
const migrateCommand = /&& exec (node .+)$/.exec(scripts['db:migrate'])?.[1].split(' ');

/** The Secret's keys the example names, and the placeholder values of those it sets. */
function secretExample(): { named: Set<string>; values: Record<string, string> } {
  const names = new Set<string>();
  const values: Record<string, string> = {};
  for (const line of readFileSync(SECRET_EXAMPLE, 'utf8').split('\n')) {
    const match = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    names.add(match[2]);
    if (match[1] === undefined) values[match[2]] = match[3];
  }
  return { named: names, values };
}

interface ContainerEnv {
  /** What the process would find in its environment, the Secret's keys taken from the example. */
  values: Record<string, string>;
  secretRefs: Array<{ variable: string; secret: string; key: string; optional: boolean }>;
  configMaps: string[];
}

function containerEnv(container: IContainer, objects: KubeObject[]): ContainerEnv {
  const example = secretExample();
  const env: ContainerEnv = { values: {}, secretRefs: [], configMaps: [] };
  for (const source of container.envFrom ?? []) {
    // Secrets come in key by key, so the manifests say which variables they set.
    expect(source.secretRef).toBeUndefined();
    const name = source.configMapRef?.name ?? '';
    const configMap = ofKind<IConfigMap>(objects, 'ConfigMap').find(
      (object) => object.metadata.name === name,
    );
    expect(configMap?.metadata.name).toBe(name);
    env.configMaps.push(name);
    Object.assign(env.values, configMap?.data ?? {});
  }
  for (const variable of container.env ?? []) {
    const secretRef = variable.valueFrom?.secretKeyRef;
    if (secretRef === undefined) {
      expect(variable.valueFrom).toBeUndefined();
      env.values[variable.name] = variable.value ?? '';
      continue;
    }
    const ref = {
      variable: variable.name,
      secret: secretRef.name ?? '',
      key: secretRef.key,
      optional: secretRef.optional === true,
    };
    env.secretRefs.push(ref);
    if (ref.key in example.values) env.values[ref.variable] = example.values[ref.key];
  }
  return env;
}

/** The gateway's configuration from `values`, with every variable it read. */
function gatewayConfig(values: Record<string, string>): { config: AppConfig; read: Set<string> } {
  const read = new Set<string>();
  const env = new Proxy(values, {
    get: (target, name) => {
      if (typeof name === 'string') read.add(name);
      return typeof name === 'string' ? target[name] : undefined;
    },
  });
  return { config: loadConfig(env), read };
}

function podLabelsMatch(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
) {
  expect(selector).toBeDefined();
  expect(labels).toEqual(expect.objectContaining(selector));
}

function portOf(url: string, defaults: Record<string, number>): number {
  const parsed = new URL(url);
  return parsed.port === '' ? defaults[parsed.protocol] : Number(parsed.port);
}

/** The TCP ports the gateway connects to with these settings: its database, Redis, upstreams, issuer, sinks. */
function egressPorts(config: AppConfig): number[] {
  const web = { 'http:': 80, 'https:': 443 };
  const ports = [
    portOf(config.upstream.pipesApiUrl, web),
    portOf(config.upstream.dashboardsApiUrl, web),
    ...config.upstream.dashboardsAllowedHosts.map((host) => portOf(`https://${host}`, web)),
  ];
  if (config.database.url !== null)
    ports.push(portOf(config.database.url, { 'postgresql:': 5432, 'postgres:': 5432 }));
  if (config.redisUrl !== null) ports.push(portOf(config.redisUrl, { 'redis:': 6379, 'rediss:': 6379 }));
  if (config.oidc !== null) ports.push(portOf(config.oidc.issuer, web));
  if (config.auditSinks.syslog !== null) ports.push(portOf(config.auditSinks.syslog.url, {}));
  if (config.auditSinks.webhook !== null) ports.push(portOf(config.auditSinks.webhook.url, web));
  return [...new Set(ports)].sort((a, b) => a - b);
}

function sizeInBytes(size: string): number {
  const match = /^(\d+)([kmg]?)$/i.exec(size);
  expect(match).not.toBeNull();
  return Number(match![1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match![2].toLowerCase()]!;
}

/** Whether an Ingress path of type Prefix takes `path`: Kubernetes matches it by whole segments. */
function covers(prefix: string, path: string): boolean {
  const trimmed = prefix.replace(/\/+$/, '');
  return path === trimmed || path.startsWith(`${trimmed}/`);
}

function gatewayContainer(deployment: Of<IDeployment>): IContainer {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  expect(containers).toHaveLength(1);
  return containers[0];
}

function expectLockedDown(pod: IPodSpec, container: IContainer): void {
  expect(pod.securityContext?.runAsNonRoot).toBe(true);
  expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
  expect(pod.automountServiceAccountToken).toBe(false);
  expect(container.securityContext).toEqual(
    expect.objectContaining({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    }),
  );
  for (const bound of ['requests', 'limits'] as const) {
    expect(Object.keys(container.resources?.[bound] ?? {}).sort()).toEqual(['cpu', 'memory']);
  }
}

describeWithKustomize('Kubernetes manifests (deploy/kubernetes)', () => {
  const folders = kustomizations(MANIFESTS);
  const rendered = new Map<string, KubeObject[]>();
  /** The kustomizations of one namespace together: a release's migration Job and its gateway. */
  const environments = new Map<string, KubeObject[]>();

  beforeAll(() => {
    for (const folder of folders) {
      const objects = render(folder);
      rendered.set(folder, objects);
      const namespace = objects[0]?.metadata.namespace ?? '(no namespace)';
      environments.set(namespace, [...(environments.get(namespace) ?? []), ...objects]);
    }
  });

  it('has a base, a migration Job and a production overlay of each', () => {
    expect(folders.map((folder) => relative(MANIFESTS, folder)).sort()).toEqual(
      expect.arrayContaining(['base', 'migration', 'overlays/production', 'overlays/production/migration']),
    );
  });

  it.each(folders.map((folder) => relative(MANIFESTS, folder)))(
    '%s renders objects of GA API versions that the Kubernetes 1.33 schema accepts, and no Secret',
    (folder) => {
      const objects = rendered.get(join(MANIFESTS, folder)) ?? [];
      expect(objects.length).toBeGreaterThan(0);
      for (const object of objects) {
        // Alpha and beta versions are removed in later releases; GA ones stay.
        expect(`${named(object)} ${object.apiVersion}`).toMatch(/ (.+\/)?v\d+$/);
        const Model = MODELS.find(
          (model) => model.apiVersion === object.apiVersion && model.kind === object.kind,
        );
        if (Model === undefined)
          throw new Error(`${named(object)} (${object.apiVersion}): no model imported for it`);
        expect(() => new Model(object).validate()).not.toThrow();
        // Keys are referenced by name, never held in the manifests.
        expect(object.kind).not.toBe('Secret');
      }
      expect(new Set(objects.map((object) => object.metadata.namespace)).size).toBe(1);
    },
  );

  it.each(folders.map((folder) => relative(MANIFESTS, folder)))(
    '%s applies on its own: the account and settings its pods name come with it, the Secret apart',
    (folder) => {
      const objects = rendered.get(join(MANIFESTS, folder)) ?? [];
      const present = new Set(objects.map(named));
      const pods = [...ofKind<IDeployment>(objects, 'Deployment'), ...ofKind<IJob>(objects, 'Job')].map(
        (workload) => workload.spec?.template.spec,
      );
      expect(pods.length).toBeGreaterThan(0);
      for (const pod of pods) {
        const needed = [`ServiceAccount ${pod?.serviceAccountName}`];
        for (const container of pod?.containers ?? []) {
          for (const source of container.envFrom ?? []) needed.push(`ConfigMap ${source.configMapRef?.name}`);
        }
        expect(needed.filter((object) => !present.has(object))).toEqual([]);
      }
    },
  );

  it('has no field the Kubernetes 1.33 schema lacks, at any depth', () => {
    const objects = folders.flatMap((folder) =>
      (rendered.get(folder) ?? []).map((object) => ({ source: relative(MANIFESTS, folder), object })),
    );
    expect(refusedByDeclarations(objects)).toEqual([]);
  });

  describe.each([
    ...new Set(folders.map((folder) => relative(MANIFESTS, folder)).filter((f) => !f.endsWith('migration'))),
  ])('the gateway of %s', (folder) => {
    let objects: KubeObject[];
    let deployment: Of<IDeployment>;
    let container: IContainer;
    let env: ContainerEnv;
    let config: AppConfig;
    let read: Set<string>;

    beforeAll(() => {
      objects = rendered.get(join(MANIFESTS, folder)) ?? [];
      deployment = only<IDeployment>(objects, 'Deployment');
      container = gatewayContainer(deployment);
      env = containerEnv(container, objects);
      ({ config, read } = gatewayConfig(env.values));
    });

    it('runs node with the flags and setting of npm run start:prod, as the Dockerfile does', () => {
      expect(container.command).toEqual(['node', ...production.nodeOptions, 'dist/src/main.js']);
      expect(container.args).toBeUndefined();
      for (const [name, value] of Object.entries(production.env)) expect(env.values[name]).toBe(value);
    });

    it('sets only variables the gateway reads, keys from one Secret under their own names', () => {
      const set = Object.keys(env.values).filter((name) => !(name in production.env));
      expect(set.filter((name) => !read.has(name))).toEqual([]);
      for (const ref of env.secretRefs) {
        expect(read.has(ref.variable)).toBe(true);
        expect(ref.key).toBe(ref.variable);
        expect(ref.secret).toBe(env.secretRefs[0].secret);
      }
      expect(config.env).toBe('production');
      expect(config.database.url).not.toBeNull();
      expect(config.redisUrl).not.toBeNull();
    });

    it('names every key of the Secret in secret.env.example, with a placeholder for each required one', () => {
      const example = secretExample();
      expect([...example.named].sort()).toEqual(env.secretRefs.map((ref) => ref.key).sort());
      const required = env.secretRefs.filter((ref) => !ref.optional).map((ref) => ref.key);
      expect(required.filter((key) => !(key in example.values))).toEqual([]);
      for (const value of Object.values(example.values)) expect(value).toContain('CHANGE-ME');
    });

    it("listens on the container's port and is probed on its health routes", () => {
      const port = container.ports?.find((candidate) => candidate.name === 'http');
      expect(port?.containerPort).toBe(config.http.port);
      const probes = {
        startup: container.startupProbe,
        liveness: container.livenessProbe,
        readiness: container.readinessProbe,
      };
      for (const probe of Object.values(probes)) expect(probe?.httpGet?.port).toBe('http');
      expect(probes.liveness?.httpGet?.path).toBe(LIVENESS);
      expect(probes.readiness?.httpGet?.path).toBe(READINESS);
      expect([LIVENESS, READINESS]).toContain(probes.startup?.httpGet?.path);
      expect(deployment.spec?.template.metadata?.annotations).toEqual(
        expect.objectContaining({
          'prometheus.io/path': METRICS,
          'prometheus.io/port': String(config.http.port),
        }),
      );
    });

    it('rolls out with no replica unavailable, locked down, within its resources', () => {
      expect(deployment.spec?.replicas).toBe(3);
      expect(deployment.spec?.strategy?.type).toBe('RollingUpdate');
      expect(deployment.spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
      podLabelsMatch(deployment.spec?.selector.matchLabels, deployment.spec?.template.metadata?.labels);
      expectLockedDown(deployment.spec!.template.spec!, container);
    });

    it('gives a stopping replica longer than its drain and the requests it then finishes', () => {
      const pod = deployment.spec!.template.spec!;
      const sleepMs = (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
      const inFlightMs = config.upstream.timeoutMs + config.database.queryTimeoutMs;
      // Serving on while the endpoints and the ingress drop the pod is what keeps a rollout clean.
      expect(config.http.shutdownDrainMs).toBeGreaterThan(0);
      expect((pod.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(
        sleepMs + config.http.shutdownDrainMs + inFlightMs,
      );
    });

    it("has a Service, a PodDisruptionBudget and an autoscaler on the gateway's pods", () => {
      const podLabels = deployment.spec?.template.metadata?.labels;
      const service = only<IService>(objects, 'Service');
      podLabelsMatch(service.spec?.selector, podLabels);
      expect(service.spec?.ports?.map((port) => port.targetPort)).toEqual(['http']);
      const budget = only<IPodDisruptionBudget>(objects, 'PodDisruptionBudget');
      podLabelsMatch(budget.spec?.selector?.matchLabels, podLabels);
      expect(budget.spec?.maxUnavailable).toBe(1);
      const autoscaler = only<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler');
      expect(autoscaler.spec?.scaleTargetRef).toEqual({
        apiVersion: deployment.apiVersion,
        kind: 'Deployment',
        name: deployment.metadata.name,
      });
      expect(autoscaler.spec?.minReplicas).toBe(deployment.spec?.replicas);
    });

    it('routes the API and the console through the Ingress, suited to event streams, and not /metrics or /health', () => {
      const ingress = only<IIngress>(objects, 'Ingress');
      const service = only<IService>(objects, 'Service');
      const annotations = ingress.metadata?.annotations ?? {};
      expect(annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
      // A stream gets a heartbeat when idle: a proxy waiting less cuts it.
      expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']) * 1000).toBeGreaterThan(
        2 * config.pipeEvents.heartbeatMs,
      );
      // A larger body reaches the gateway, which answers with its own 413 problem.
      expect(sizeInBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'])).toBeGreaterThan(
        config.http.bodyLimitBytes,
      );
      const paths = (ingress.spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
      for (const path of paths) {
        expect(path.pathType).toBe('Prefix');
        expect(path.backend.service?.name).toBe(service.metadata.name);
        expect(service.spec?.ports?.map((port) => port.name)).toContain(path.backend.service?.port?.name);
      }
      const routed = (route: string) => paths.some((path) => covers(path.path ?? '/', route));
      const internal = [LIVENESS, READINESS, METRICS];
      const api = Object.keys(
        (JSON.parse(readFileSync(join(ROOT, 'clients', 'openapi.json'), 'utf8')) as { paths: object }).paths,
      ).filter((route) => !internal.includes(route));
      expect(api.filter((route) => !routed(route))).toEqual([]);
      expect(routed(`${CONSOLE_PATH}/`)).toBe(true);
      expect(internal.filter(routed)).toEqual([]);
    });
  });

  describe.each([
    ...new Set(folders.map((folder) => relative(MANIFESTS, folder)).filter((f) => f.endsWith('migration'))),
  ])('the migration Job of %s', (folder) => {
    let job: Of<IJob>;
    let container: IContainer;
    let env: ContainerEnv;

    beforeAll(() => {
      const objects = rendered.get(join(MANIFESTS, folder)) ?? [];
      job = only<IJob>(objects, 'Job');
      const containers = job.spec?.template.spec?.containers ?? [];
      expect(containers).toHaveLength(1);
      container = containers[0];
      env = containerEnv(container, objects);
    });

    it('runs the CLI as npm run db:migrate does, once, with only the database key', () => {
      expect(migrateCommand).toBeDefined();
      expect(container.command).toEqual(migrateCommand);
      expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
      expect(env.secretRefs.map((ref) => ref.variable)).toEqual(['DATABASE_URL']);
      const { config, read } = gatewayConfig(env.values);
      expect(config.database.url).not.toBeNull();
      expect(Object.keys(env.values).filter((name) => !read.has(name))).toEqual([]);
      expectLockedDown(job.spec!.template.spec!, container);
    });
  });

  it("gives each release's Job the settings of its gateway, and lets the pods reach what those settings name", () => {
    expect(environments.size).toBeGreaterThan(0);
    for (const [namespace, objects] of environments) {
      const deployment = only<IDeployment>(objects, 'Deployment');
      const job = only<IJob>(objects, 'Job');
      const gatewayEnv = containerEnv(gatewayContainer(deployment), objects);
      const jobEnv = containerEnv(job.spec!.template.spec!.containers[0], objects);
      expect(`${namespace}: ${jobEnv.configMaps.join()}`).toBe(
        `${namespace}: ${gatewayEnv.configMaps.join()}`,
      );

      const policy = only<INetworkPolicy>(objects, 'NetworkPolicy').spec ?? { podSelector: {} };
      podLabelsMatch(policy.podSelector.matchLabels, deployment.spec?.template.metadata?.labels);
      podLabelsMatch(policy.podSelector.matchLabels, job.spec?.template.metadata?.labels);
      expect(policy.policyTypes).toEqual(expect.arrayContaining(['Ingress', 'Egress']));
      const allowed = (policy.egress ?? []).flatMap((rule) =>
        (rule.ports ?? []).map((port) => `${port.protocol ?? 'TCP'}/${port.port}`),
      );
      const { config } = gatewayConfig(gatewayEnv.values);
      const needed = [...egressPorts(config).map((port) => `TCP/${port}`), 'UDP/53'];
      expect(`${namespace}: ${needed.filter((port) => !allowed.includes(port)).join()}`).toBe(
        `${namespace}: `,
      );
      // Egress rules name their ports: none opens every port.
      expect((policy.egress ?? []).every((rule) => (rule.ports ?? []).length > 0)).toBe(true);
      const reachable = (policy.ingress ?? []).flatMap((rule) => (rule.ports ?? []).map((port) => port.port));
      expect(reachable).toEqual(['http']);
    }
  });
});
