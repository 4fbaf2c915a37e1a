import { randomUUID } from 'node:crypto';
import { basicCredentials, secretsEqual } from './authorization';
import { emptyReply, HttpSimulator, jsonReply } from './http-simulator';
import type {
  ControlRoute,
  RequestBody,
  SimulatorOptions,
  SimulatorReply,
  SimulatorRequest,
} from './http-simulator';
import {
  CDC_KINDS,
  DEFAULT_SCALING,
  isRecord,
  mergePatch,
  shownFields,
  sourceKindsIn,
  SOURCE_KINDS,
  withServiceDefaults,
} from './pipe-shapes';
import type { Fields, SourceKind } from './pipe-shapes';
import { alternativeFieldNames, documentCheck, namedPart, requestSchemaName } from './pipes-service-document';
import type { BodyProblem } from './pipes-service-document';

/** Every state the real service reports. */
export const PIPE_STATES = [
  'Unknown',
  'Provisioning',
  'Running',
  'Degraded',
  'Stopping',
  'Stopped',
  'Failed',
  'Completed',
  'InternalError',
  'Setup',
  'Snapshot',
  'Paused',
  'Pausing',
  'Modifying',
  'Resync',
] as const;
export type PipeState = (typeof PIPE_STATES)[number];

export interface PipesApiKey {
  keyId: string;
  keySecret: string;
  /** A disabled key is refused with 401, like a wrong one. */
  disabled?: boolean;
  /** A read-only key may list and read; every change answers 403. */
  readOnly?: boolean;
}

/** How long a pipe spends in each passing state before the next one. */
export interface PipeStateDelaysMs {
  /** Every pipe starts Provisioning, and a started one goes through it again. */
  provisioning: number;
  /** Database (CDC) sources: Setup follows Provisioning; Resync comes before a new Snapshot. */
  setup: number;
  /** Database sources: Snapshot follows Setup (or Resync), then Running. */
  snapshot: number;
  /** objectStorage that is not continuous: Running this long after Provisioning, then Completed. */
  oneOffLoad: number;
  /** Stopping (Pausing for a database source) before Stopped (Paused). */
  stopping: number;
}

export interface PipesSimulatorOptions extends SimulatorOptions {
  keys: PipesApiKey[];
  stateDelaysMs?: Partial<PipeStateDelaysMs>;
}

/** A pipe as the simulator keeps it, secrets included. */
export interface StoredPipe {
  id: string;
  organizationId: string;
  serviceId: string;
  sourceKind: SourceKind;
  name: unknown;
  scaling: Fields;
  source: Fields;
  destination: Fields;
  fieldMappings: unknown[];
  settings: Fields;
  createdAt: string;
  updatedAt: string;
  /** The states the pipe passes through from `since` (epoch ms), and where it stays. */
  timeline: { since: number; phases: Array<[PipeState, number]>; last: PipeState };
  /** Set by setPipeState; wins over the timeline until a state command. */
  pinnedState: PipeState | null;
}

export const DEFAULT_PIPE_STATE_DELAYS_MS: PipeStateDelaysMs = {
  provisioning: 1_000,
  setup: 1_000,
  snapshot: 2_000,
  oneOffLoad: 5_000,
  stopping: 1_000,
};

// The contract names the resource `pipes`; the real service `clickpipes`. Both are served.
const PIPES_ROUTE =
  /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)\/(?:pipes|clickpipes)(?:\/([^/]+)(?:\/(settings|state|scaling))?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Operation =
  | 'list'
  | 'create'
  | 'read'
  | 'update'
  | 'delete'
  | 'readSettings'
  | 'replaceSettings'
  | 'changeState'
  | 'scale';
const READ_OPERATIONS: readonly Operation[] = ['list', 'read', 'readSettings'];

/** Which fields name a table mapping, per database source. */
const TABLE_KEYS: Partial<Record<SourceKind, string[]>> = {
  postgres: ['sourceSchemaName', 'sourceTable', 'targetTable'],
  mysql: ['sourceSchemaName', 'sourceTable', 'targetTable'],
  mongodb: ['sourceDatabaseName', 'sourceCollection', 'targetTable'],
};

/** An answer other than success; turned into the service's error body. */
class PipesApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The pipes management API, with the real service's shapes and behaviour where the contract is silent. */
export class PipesSimulator extends HttpSimulator {
  private readonly keys: PipesApiKey[];
  private readonly stateDelaysMs: PipeStateDelaysMs;
  private readonly pipes = new Map<string, StoredPipe>();
  private readonly idleServices = new Set<string>();

  constructor(options: PipesSimulatorOptions) {
    super(options);
    this.keys = options.keys.map((key) => ({ ...key }));
    this.stateDelaysMs = { ...DEFAULT_PIPE_STATE_DELAYS_MS, ...options.stateDelaysMs };
  }

  /** Calls for this service answer 424 `Current state: idle` until wakeService. */
  markServiceIdle(serviceId: string): void {
    this.idleServices.add(serviceId.toLowerCase());
  }

  wakeService(serviceId: string): void {
    this.idleServices.delete(serviceId.toLowerCase());
  }

  /** Holds a pipe in a state (for example Paused, to allow table mapping edits) until a state command. */
  setPipeState(pipeId: string, state: PipeState): void {
    const pipe = this.pipes.get(pipeId.toLowerCase());
    if (pipe === undefined) throw new Error(`no pipe ${pipeId}`);
    pipe.pinnedState = state;
  }

  storedPipe(pipeId: string): StoredPipe | undefined {
    const pipe = this.pipes.get(pipeId.toLowerCase());
    return pipe && structuredClone(pipe);
  }

  storedPipes(): StoredPipe[] {
    return structuredClone([...this.pipes.values()]);
  }

  /** The state the service reports now; computed from the clock, so no timers run. */
  stateOf(pipe: StoredPipe): PipeState {
    if (pipe.pinnedState !== null) return pipe.pinnedState;
    const elapsed = this.now() - pipe.timeline.since;
    let phaseEnd = 0;
    for (const [state, durationMs] of pipe.timeline.phases) {
      phaseEnd += durationMs;
      if (elapsed < phaseEnd) return state;
    }
    return pipe.timeline.last;
  }

  protected handle(request: SimulatorRequest): SimulatorReply {
    const route = PIPES_ROUTE.exec(request.path);
    if (route === null) return this.errorReply(404, `No route for ${request.method} ${request.path}`);
    const [, organizationId, serviceId, pipeId, suffix] = route;
    const operation = operationOf(request.method, pipeId !== undefined, suffix);
    if (operation === null) return this.errorReply(405, `Method ${request.method} is not allowed here`);

    const key = this.authenticate(request.headers.authorization);
    if (key === null) return this.errorReply(401, 'Unauthorized: missing or invalid API key');
    const limit = this.rateLimiter?.hit(key.keyId);
    if (limit && !limit.allowed) return this.rateLimitedReply(limit.resetSeconds);
    if (key.readOnly && !READ_OPERATIONS.includes(operation)) {
      return this.errorReply(403, 'Forbidden: the API key is not allowed to change pipes');
    }

    const ids = { organizationId, serviceId, ...(pipeId === undefined ? {} : { pipeId }) };
    const malformed = Object.entries(ids).filter(([, id]) => !UUID.test(id));
    if (malformed.length > 0) {
      return this.errorReply(400, malformed.map(([name]) => `${name} must be a UUID`).join('; '));
    }
    if (this.idleServices.has(serviceId.toLowerCase())) {
      return this.errorReply(424, `Service ${serviceId} is not running. Current state: idle`);
    }

    const org = organizationId.toLowerCase();
    const service = serviceId.toLowerCase();
    const pipe = (): StoredPipe => this.pipeAt(org, service, pipeId);
    try {
      switch (operation) {
        case 'list':
          return envelope(
            [...this.pipes.values()]
              .filter((stored) => stored.organizationId === org && stored.serviceId === service)
              .map((stored) => this.shownPipe(stored, request.echoSecrets)),
          );
        case 'create':
          return this.create(org, service, request);
        case 'read':
          return envelope(this.shownPipe(pipe(), request.echoSecrets));
        case 'update':
          return this.update(pipe(), request);
        case 'delete':
          this.pipes.delete(pipe().id);
          return jsonReply(200, { status: 200, requestId: randomUUID() });
        case 'readSettings':
          return envelope(pipe().settings);
        case 'replaceSettings':
          return this.replaceSettings(pipe(), request.body);
        case 'changeState':
          return this.changeState(pipe(), request);
        case 'scale':
          return this.scale(pipe(), request);
      }
    } catch (error) {
      if (error instanceof PipesApiError) return this.errorReply(error.status, error.message);
      throw error;
    }
  }

  protected errorReply(status: number, message: string): SimulatorReply {
    return jsonReply(status, { status, error: message, requestId: randomUUID() });
  }

  protected rateLimitedReply(retryAfterSeconds: number): SimulatorReply {
    return jsonReply(
      429,
      {
        status: 429,
        error: 'Too many requests: rate limit exceeded for this API key',
        requestId: randomUUID(),
      },
      { 'x-ratelimit-reset': String(retryAfterSeconds) },
    );
  }

  protected resetData(): void {
    this.pipes.clear();
    this.idleServices.clear();
  }

  protected override controlRoutes(): ControlRoute[] {
    return [
      {
        method: 'POST',
        path: /^\/services\/([^/]+)\/idle$/,
        handle: ([serviceId]) => {
          this.markServiceIdle(serviceId);
          return emptyReply();
        },
      },
      {
        method: 'DELETE',
        path: /^\/services\/([^/]+)\/idle$/,
        handle: ([serviceId]) => {
          this.wakeService(serviceId);
          return emptyReply();
        },
      },
      {
        method: 'PUT',
        path: /^\/pipes\/([^/]+)\/state$/,
        handle: ([pipeId], body) => {
          const state: unknown = isRecord(body) ? body.state : undefined;
          if (!PIPE_STATES.includes(state as PipeState)) {
            return jsonReply(400, { error: `state must be one of ${PIPE_STATES.join(', ')}` });
          }
          if (!this.pipes.has(pipeId.toLowerCase())) return jsonReply(404, { error: `no pipe ${pipeId}` });
          this.setPipeState(pipeId, state as PipeState);
          return emptyReply();
        },
      },
    ];
  }

  private authenticate(header: string | undefined): PipesApiKey | null {
    const presented = basicCredentials(header);
    if (presented === null) return null;
    const key = this.keys.find((candidate) => candidate.keyId === presented.id);
    if (key === undefined || key.disabled || !secretsEqual(presented.secret, key.keySecret)) return null;
    return key;
  }

  /** The pipe at this path; a pipe of another organization or service is as unknown as a missing one. */
  private pipeAt(organizationId: string, serviceId: string, pipeId: string): StoredPipe {
    const pipe = this.pipes.get(pipeId.toLowerCase());
    if (pipe === undefined || pipe.organizationId !== organizationId || pipe.serviceId !== serviceId) {
      throw new PipesApiError(404, `Pipe ${pipeId} not found`);
    }
    return pipe;
  }

  /** Stores a pipe as if created through the API (its body checked the same way), for tests to act on. */
  seedPipe(organizationId: string, serviceId: string, body: Fields): StoredPipe {
    const pipe = this.stored(
      organizationId.toLowerCase(),
      serviceId.toLowerCase(),
      keptOf(checkedBody({ kind: 'json', value: body }, checkCreateBody), BODY_SCHEMAS.create),
    );
    return structuredClone(pipe);
  }

  private create(organizationId: string, serviceId: string, request: SimulatorRequest): SimulatorReply {
    const body = keptOf(checkedBody(request.body, checkCreateBody), BODY_SCHEMAS.create);
    const pipe = this.stored(organizationId, serviceId, body);
    return envelope(this.shownPipe(pipe, request.echoSecrets));
  }

  private stored(organizationId: string, serviceId: string, body: Fields): StoredPipe {
    const { validateSamples: _validateSamples, ...source } = structuredClone(body.source as Fields);
    const sourceKind = sourceKindsIn(source)[0];
    const now = this.now();
    const createdAt = new Date(now).toISOString();
    const pipe: StoredPipe = {
      id: randomUUID(),
      organizationId,
      serviceId,
      sourceKind,
      name: body.name,
      scaling: { ...DEFAULT_SCALING, ...structuredClone(body.scaling as Fields | undefined) },
      source: withServiceDefaults(sourceKind, source),
      destination: structuredClone((body.destination as Fields | undefined) ?? {}),
      fieldMappings: structuredClone((body.fieldMappings as unknown[] | undefined) ?? []),
      settings: structuredClone((body.settings as Fields | undefined) ?? {}),
      createdAt,
      updatedAt: createdAt,
      timeline: { since: now, ...this.startingTimeline(sourceKind, source) },
      pinnedState: null,
    };
    this.pipes.set(pipe.id, pipe);
    return pipe;
  }

  /**
   * Fields left out keep their values; objects are merged field by field, arrays replaced, null
   * clears. Create-time fields of the source are taken and left as they were.
   */
  private update(pipe: StoredPipe, request: SimulatorRequest): SimulatorReply {
    const patch = keptOf(checkedBody(request.body, checkUpdateBody), BODY_SCHEMAS.update);
    const source = isRecord(patch.source) ? patch.source : {};
    const otherKinds = sourceKindsIn(source).filter((kind) => kind !== pipe.sourceKind);
    if (otherKinds.length > 0) {
      throw new PipesApiError(
        400,
        `Invalid request body: ${otherKinds.map((kind) => `source.${kind}: the pipe's source is ${pipe.sourceKind}`).join('; ')}`,
      );
    }
    delete source.validateSamples;

    const updated = structuredClone(pipe);
    const kindPatch = isRecord(source[pipe.sourceKind]) ? (source[pipe.sourceKind] as Fields) : null;
    if (kindPatch && ('tableMappingsToAdd' in kindPatch || 'tableMappingsToRemove' in kindPatch)) {
      const state = this.stateOf(pipe);
      if (state !== 'Paused' && state !== 'Stopped') {
        throw new PipesApiError(400, `Pipe is ${state}: the pipe must be paused to edit table mappings`);
      }
      const stored = updated.source[pipe.sourceKind] as Fields;
      stored.tableMappings = editedTableMappings(
        pipe.sourceKind,
        (stored.tableMappings as Fields[] | undefined) ?? [],
        (kindPatch.tableMappingsToRemove as Fields[] | null | undefined) ?? [],
        (kindPatch.tableMappingsToAdd as Fields[] | null | undefined) ?? [],
      );
      delete kindPatch.tableMappingsToAdd;
      delete kindPatch.tableMappingsToRemove;
    }
    mergePatch(updated as unknown as Fields, patch);
    updated.updatedAt = new Date(this.now()).toISOString();
    this.pipes.set(updated.id, updated);
    return envelope(this.shownPipe(updated, request.echoSecrets));
  }

  /** A PUT: the settings object replaces the old one whole. */
  private replaceSettings(pipe: StoredPipe, body: RequestBody): SimulatorReply {
    pipe.settings = structuredClone(checkedBody(body, checkSettingsBody));
    pipe.updatedAt = new Date(this.now()).toISOString();
    return envelope(pipe.settings);
  }

  private scale(pipe: StoredPipe, request: SimulatorRequest): SimulatorReply {
    const patch = keptOf(checkedBody(request.body, checkScalingBody), BODY_SCHEMAS.scale);
    for (const [name, value] of Object.entries(patch)) {
      pipe.scaling[name] = value ?? DEFAULT_SCALING[name as keyof typeof DEFAULT_SCALING];
    }
    pipe.updatedAt = new Date(this.now()).toISOString();
    return envelope(this.shownPipe(pipe, request.echoSecrets));
  }

  /** start, stop and resync, from the states where the service takes them; any other is a conflict. */
  private changeState(pipe: StoredPipe, request: SimulatorRequest): SimulatorReply {
    const { command } = checkedBody(request.body, checkStateBody) as { command: 'start' | 'stop' | 'resync' };
    const state = this.stateOf(pipe);
    const cdc = CDC_KINDS.includes(pipe.sourceKind);
    const delays = this.stateDelaysMs;
    const stopped = ['Stopped', 'Paused', 'Failed', 'Completed'].includes(state);
    let next: Omit<StoredPipe['timeline'], 'since'>;
    if (command === 'stop') {
      if (stopped || state === 'Stopping' || state === 'Pausing') {
        throw new PipesApiError(409, `Pipe is ${state}: it cannot be stopped`);
      }
      next = cdc
        ? { phases: [['Pausing', delays.stopping]], last: 'Paused' }
        : { phases: [['Stopping', delays.stopping]], last: 'Stopped' };
    } else if (command === 'start') {
      if (!stopped) throw new PipesApiError(409, `Pipe is ${state}: only a stopped pipe can be started`);
      next = { phases: [['Provisioning', delays.provisioning]], last: 'Running' };
    } else {
      if (!cdc)
        throw new PipesApiError(400, `resync is only for database pipes; this pipe reads ${pipe.sourceKind}`);
      if (!['Running', 'Paused', 'Stopped', 'Failed'].includes(state)) {
        throw new PipesApiError(409, `Pipe is ${state}: it cannot be resynced now`);
      }
      next = {
        phases: [
          ['Resync', delays.setup],
          ['Snapshot', delays.snapshot],
        ],
        last: 'Running',
      };
    }
    pipe.timeline = { since: this.now(), ...next };
    pipe.pinnedState = null;
    pipe.updatedAt = new Date(this.now()).toISOString();
    return envelope(this.shownPipe(pipe, request.echoSecrets));
  }

  private shownPipe(pipe: StoredPipe, echoSecrets: boolean): Fields {
    const { name, scaling, source, destination, fieldMappings, settings } = pipe;
    const shown = shownFields({ name, scaling, source, destination, fieldMappings, settings }, echoSecrets);
    return {
      id: pipe.id,
      serviceId: pipe.serviceId,
      name: shown.name,
      state: this.stateOf(pipe),
      scaling: shown.scaling,
      source: shown.source,
      destination: shown.destination,
      fieldMappings: shown.fieldMappings,
      settings: shown.settings,
      createdAt: pipe.createdAt,
      updatedAt: pipe.updatedAt,
    };
  }

  private startingTimeline(kind: SourceKind, source: Fields): Omit<StoredPipe['timeline'], 'since'> {
    const delays = this.stateDelaysMs;
    if (CDC_KINDS.includes(kind)) {
      return {
        phases: [
          ['Provisioning', delays.provisioning],
          ['Setup', delays.setup],
          ['Snapshot', delays.snapshot],
        ],
        last: 'Running',
      };
    }
    const objectStorage = source.objectStorage as Fields | undefined;
    if (objectStorage !== undefined && objectStorage.isContinuous !== true) {
      return {
        phases: [
          ['Provisioning', delays.provisioning],
          ['Running', delays.oneOffLoad],
        ],
        last: 'Completed',
      };
    }
    return { phases: [['Provisioning', delays.provisioning]], last: 'Running' };
  }
}

export async function startPipesSimulator(options: PipesSimulatorOptions): Promise<PipesSimulator> {
  return new PipesSimulator(options).listen();
}

function operationOf(method: string, hasPipeId: boolean, suffix: string | undefined): Operation | null {
  const operations: Record<string, Partial<Record<string, Operation>>> = hasPipeId
    ? {
        '': { GET: 'read', PATCH: 'update', DELETE: 'delete' },
        settings: { GET: 'readSettings', PUT: 'replaceSettings' },
        state: { PATCH: 'changeState' },
        scaling: { PATCH: 'scale' },
      }
    : { '': { GET: 'list', POST: 'create' } };
  return operations[suffix ?? '']?.[method] ?? null;
}

function envelope(result: unknown): SimulatorReply {
  return jsonReply(200, { status: 200, requestId: randomUUID(), result });
}

/** Checks a body against the service's document, then (on a body it accepts) `rules`. */
type BodyCheck = (body: Fields) => BodyProblem[];
type BodyRule = (body: Fields) => BodyProblem[];

/** The schema the service's document gives the body of each operation that takes one. */
const BODY_SCHEMAS = {
  create: requestSchemaName('POST', ''),
  update: requestSchemaName('PATCH', '/{clickPipeId}'),
  replaceSettings: requestSchemaName('PUT', '/{clickPipeId}/settings'),
  changeState: requestSchemaName('PATCH', '/{clickPipeId}/state'),
  scale: requestSchemaName('PATCH', '/{clickPipeId}/scaling'),
};

function bodyCheck(schemaName: string, rules: readonly BodyRule[] = []): BodyCheck {
  const check = documentCheck(schemaName);
  return (body) => {
    const problems = check(body);
    // Rules read fields the document has typed; on a body with type errors they would only add noise.
    return problems.length > 0 ? problems : rules.flatMap((rule) => rule(body));
  };
}

/**
 * What the service keeps of a body: the fields its document names. Settings keep the names it does
 * not list: the contract names five of them `engine_*` where the service says `clickhouse_*`.
 */
const keptOf = (body: Fields, schemaName: string): Fields =>
  namedPart(structuredClone(body), schemaName, ['ClickPipeSettings']);

const fieldsOf = (value: unknown): Fields => (isRecord(value) ? value : {});
const present = (value: unknown): boolean => value !== undefined && value !== null;

/** The contract's create rule: `source` names exactly one kind. */
const exactlyOneSourceKind: BodyRule = ({ source }) => {
  if (source === undefined) return [{ path: 'source', message: 'is required' }];
  if (sourceKindsIn(fieldsOf(source)).length === 1) return [];
  return [{ path: 'source', message: `must contain exactly one source kind (${SOURCE_KINDS.join(', ')})` }];
};

/** The contract's create rule: when destination columns are given, each is some mapping's destinationField. */
const everyDestinationColumnMapped: BodyRule = ({ destination, fieldMappings }) => {
  const columns = fieldsOf(destination).columns;
  if (!Array.isArray(columns)) return [];
  const mapped = new Set(
    (Array.isArray(fieldMappings) ? (fieldMappings as Fields[]) : []).map(
      (mapping) => mapping.destinationField,
    ),
  );
  const unmapped = [
    ...new Set((columns as Fields[]).map((column) => column.name).filter((name) => !mapped.has(name))),
  ];
  if (unmapped.length === 0) return [];
  return [
    {
      path: 'fieldMappings',
      message: `must map every destination column; not mapped: ${unmapped.join(', ')}`,
    },
  ];
};

// The document offers kafka credentials as a `oneOf` of forms; read as `anyOf`, this keeps them apart.
const KAFKA_CREDENTIAL_FORMS = alternativeFieldNames('ClickPipePostKafkaSource', 'credentials');

/** Kafka credentials are one of the service's forms, not a mix of two. */
const oneKafkaCredentialForm: BodyRule = ({ source }) => {
  const credentials = fieldsOf(fieldsOf(fieldsOf(source).kafka).credentials);
  const given = Object.keys(credentials).filter((name) => present(credentials[name]));
  const forms = KAFKA_CREDENTIAL_FORMS.filter((form) => given.some((name) => form.includes(name)));
  if (forms.length <= 1) return [];
  return [
    {
      path: 'source.kafka.credentials',
      message: `must hold one form of credentials, not several: ${KAFKA_CREDENTIAL_FORMS.map((form) => `{${form.join(', ')}}`).join(', ')}`,
    },
  ];
};

/** A start position "at a time" needs the time: kafka's from_timestamp and kinesis's AT_TIMESTAMP. */
const startTimeGiven: BodyRule = ({ source }) => {
  const { kafka, kinesis } = fieldsOf(source);
  const offset = fieldsOf(fieldsOf(kafka).offset);
  const problems: BodyProblem[] = [];
  if (offset.strategy === 'from_timestamp' && !present(offset.timestamp)) {
    problems.push({
      path: 'source.kafka.offset.timestamp',
      message: 'is required when strategy is from_timestamp',
    });
  }
  if (fieldsOf(kinesis).iteratorType === 'AT_TIMESTAMP' && !present(fieldsOf(kinesis).timestamp)) {
    problems.push({
      path: 'source.kinesis.timestamp',
      message: 'is required when iteratorType is AT_TIMESTAMP',
    });
  }
  return problems;
};

// The request schemas leave the name open; the pipe the document describes has one of 1 to 255 characters.
const checkPipeName = documentCheck('ClickPipe/properties/name');
const nameFitsAPipe: BodyRule = ({ name }) =>
  typeof name === 'string' ? checkPipeName(name).map((problem) => ({ ...problem, path: 'name' })) : [];

/** The service cannot act on a state change that names no command. */
const commandGiven: BodyRule = ({ command }) =>
  command === undefined ? [{ path: 'command', message: 'is required' }] : [];

const checkCreateBody = bodyCheck(BODY_SCHEMAS.create, [
  exactlyOneSourceKind,
  oneKafkaCredentialForm,
  startTimeGiven,
  nameFitsAPipe,
  everyDestinationColumnMapped,
]);
const checkUpdateBody = bodyCheck(BODY_SCHEMAS.update, [oneKafkaCredentialForm, nameFitsAPipe]);
const checkSettingsBody = bodyCheck(BODY_SCHEMAS.replaceSettings);
const checkStateBody = bodyCheck(BODY_SCHEMAS.changeState, [commandGiven]);
const checkScalingBody = bodyCheck(BODY_SCHEMAS.scale);

/** The body as a JSON object that passes `check`, the service's own rules for it; else a 400. */
function checkedBody(body: RequestBody, check: BodyCheck): Fields {
  if (body.kind === 'malformed') throw new PipesApiError(400, `Malformed JSON body: ${body.error}`);
  if (body.kind === 'empty' || !isRecord(body.value)) {
    throw new PipesApiError(400, 'The request body must be a JSON object');
  }
  const problems = check(body.value);
  if (problems.length > 0) {
    throw new PipesApiError(
      400,
      `Invalid request body: ${problems.map(({ path, message }) => `${path}: ${message}`).join('; ')}`,
    );
  }
  return body.value;
}

/** Removals first, so one update can replace a mapping; a target table takes one source table only. */
function editedTableMappings(
  kind: SourceKind,
  current: Fields[],
  toRemove: Fields[],
  toAdd: Fields[],
): Fields[] {
  const keys = TABLE_KEYS[kind] ?? [];
  const problems: string[] = [];
  const sameTable = (a: Fields, b: Fields): boolean => keys.every((key) => a[key] === b[key]);
  let mappings = [...current];
  toRemove.forEach((removed, index) => {
    if (!mappings.some((mapping) => sameTable(mapping, removed))) {
      problems.push(`source.${kind}.tableMappingsToRemove[${index}]: no such table mapping`);
    }
    mappings = mappings.filter((mapping) => !sameTable(mapping, removed));
  });
  toAdd.forEach((added, index) => {
    if (mappings.some((mapping) => mapping.targetTable === added.targetTable)) {
      problems.push(
        `source.${kind}.tableMappingsToAdd[${index}]: target table ${String(added.targetTable)} is already mapped`,
      );
    } else {
      mappings.push(added);
    }
  });
  if (problems.length > 0) throw new PipesApiError(400, `Invalid request body: ${problems.join('; ')}`);
  return mappings;
}
