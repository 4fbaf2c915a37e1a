/**
 * How the pipes service stores and shows a pipe, beyond what its body schema says: the defaults it
 * fills in, the fields it never shows, and the quantity strings it answers scaling with.
 */
import { requestSchemaName, sourceKindsOf } from './pipes-service-document';

export type Fields = Record<string, unknown>;

/** A source kind, as the service's document names them in a create body's `source`. */
export type SourceKind = string;
export const SOURCE_KINDS: readonly SourceKind[] = sourceKindsOf(requestSchemaName('POST', ''));

export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The database sources: they replicate tables (CDC), pause rather than stop, and can resync. */
export const CDC_KINDS: readonly SourceKind[] = ['postgres', 'mysql', 'mongodb', 'bigquery'];

export function sourceKindsIn(source: Fields): SourceKind[] {
  return SOURCE_KINDS.filter((kind) => source[kind] !== undefined && source[kind] !== null);
}

// The real service's smallest sizes, and its CDC settings defaults.
export const DEFAULT_SCALING = {
  replicas: 1,
  concurrency: 1,
  replicaCpuMillicores: 125,
  replicaMemoryGb: 0.5,
};
const DEFAULT_CDC_SETTINGS = {
  syncIntervalSeconds: 60,
  pullBatchSize: 100_000,
  initialLoadParallelism: 4,
  snapshotNumRowsPerPartition: 100_000,
  replicationMode: 'cdc',
};

/** Fields never shown in an answer: write-only, or secrets (unless a fault asks to echo them). */
const WRITE_ONLY = ['source.validateSamples', 'destination.roles'];
const SECRETS = [
  ...['kafka', 'postgres', 'mysql', 'mongodb', 'bigquery'].map((kind) => `source.${kind}.credentials`),
  'source.kafka.schemaRegistry.credentials',
  'source.objectStorage.accessKey',
  'source.objectStorage.serviceAccountKey',
  'source.kinesis.accessKey',
  'source.pubsub.serviceAccountKey',
];

/** The source as the service keeps it: what a caller left out filled in the way the service does. */
export function withServiceDefaults(kind: SourceKind, source: Fields): Fields {
  const fields = source[kind] as Fields;
  const defaults: Fields = {};
  switch (kind) {
    case 'kafka':
      Object.assign(defaults, {
        type: 'kafka',
        format: 'JSONEachRow',
        authentication: kafkaAuthentication(fields),
        exactlyOnce: false,
      });
      break;
    case 'objectStorage':
      Object.assign(defaults, {
        type: 's3',
        format: 'JSONEachRow',
        authentication: storageAuthentication(fields),
      });
      break;
    case 'kinesis':
      Object.assign(defaults, {
        format: 'JSONEachRow',
        iteratorType: 'TRIM_HORIZON',
        authentication: fields.accessKey ? 'IAM_USER' : 'IAM_ROLE',
      });
      break;
    case 'postgres':
    case 'mysql':
      Object.assign(defaults, { type: kind, authentication: fields.iamRole ? 'IAM_ROLE' : 'basic' });
      break;
  }
  const filled: Fields = { ...dropNulls(defaults), ...fields };
  if (CDC_KINDS.includes(kind)) filled.settings = { ...DEFAULT_CDC_SETTINGS, ...(fields.settings as Fields) };
  return { ...source, [kind]: filled };
}

function kafkaAuthentication(kafka: Fields): string | null {
  const credentials = isRecord(kafka.credentials) ? kafka.credentials : {};
  if ('accessKeyId' in credentials) return 'IAM_USER';
  if ('certificate' in credentials) return 'MUTUAL_TLS';
  if (kafka.iamRole && !kafka.credentials) return 'IAM_ROLE';
  return 'PLAIN';
}

function storageAuthentication(storage: Fields): string | null {
  if (storage.accessKey) return 'IAM_USER';
  if (storage.connectionString) return 'CONNECTION_STRING';
  if (storage.serviceAccountKey) return 'SERVICE_ACCOUNT';
  return storage.iamRole ? 'IAM_ROLE' : null;
}

function dropNulls(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

/** A copy of the stored pipe fields as the service shows them. */
export function shownFields(stored: Fields, echoSecrets: boolean): Fields {
  const shown = structuredClone(stored);
  for (const path of echoSecrets ? WRITE_ONLY : [...WRITE_ONLY, ...SECRETS])
    deletePath(shown, path.split('.'));
  if (isRecord(shown.scaling)) shown.scaling = asQuantities(shown.scaling);
  return shown;
}

function deletePath(fields: Fields, path: string[]): void {
  const [head, ...rest] = path;
  if (rest.length === 0) delete fields[head];
  else if (isRecord(fields[head])) deletePath(fields[head], rest);
}

/** CPU and memory the way the service answers them: Kubernetes quantities ("500m", "1Gi", "512Mi"). */
function asQuantities(scaling: Fields): Fields {
  const { replicaCpuMillicores: cpu, replicaMemoryGb: memory } = scaling;
  return {
    ...scaling,
    ...(typeof cpu === 'number' ? { replicaCpuMillicores: `${cpu}m` } : {}),
    ...(typeof memory === 'number'
      ? { replicaMemoryGb: Number.isInteger(memory) ? `${memory}Gi` : `${Math.round(memory * 1024)}Mi` }
      : {}),
  };
}

/**
 * `patch` applied to `target` the way the service applies an update: objects merged field by field,
 * arrays and values replaced, `null` clearing a field.
 */
export function mergePatch(target: Fields, patch: Fields): void {
  for (const [name, value] of Object.entries(patch)) {
    const current = target[name];
    if (value === null) delete target[name];
    else if (isRecord(value) && isRecord(current)) mergePatch(current, value);
    else target[name] = structuredClone(value);
  }
}
