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
import { isRecord, pipeBodyProblems, shownPipeFields, SOURCE_KINDS } from './pipe-schema';
import type { SourceKind } from './pipe-schema';

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
  /** A read-only key may read settings; create and update answer 403. */
  readOnly?: boolean;
}

/** How long a new pipe spends in each state before the next one. */
export interface PipeStateDelaysMs {
  /** Every pipe starts Provisioning. */
  provisioning: number;
  /** postgres: Setup follows Provisioning. */
  setup: number;
  /** postgres: Snapshot follows Setup, then Running. */
  snapshot: number;
  /** objectStorage that is not continuous: Running this long after Provisioning, then Completed. */
  oneOffLoad: number;
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
  name: string;
  scaling: Record<string, unknown>;
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  fieldMappings: unknown[];
  settings: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** Set by setPipeState; wins over the state timeline. */
  pinnedState: PipeState | null;
}

export const DEFAULT_PIPE_STATE_DELAYS_MS: PipeStateDelaysMs = {
  provisioning: 1_000,
  setup: 1_000,
  snapshot: 2_000,
  oneOffLoad: 5_000,
};

// Neither default is in the contract; these are the real service's smallest sizes and its postgres defaults.
const DEFAULT_SCALING = { replicas: 1, concurrency: 1, replicaCpuMillicores: 125, replicaMemoryGb: 0.5 };
const DEFAULT_POSTGRES_SETTINGS = {
  syncIntervalSeconds: 60,
  pullBatchSize: 100_000,
  initialLoadParallelism: 4,
  snapshotNumRowsPerPartition: 100_000,
};

const PIPES_ROUTE = /^\/v1\/organizations\/([^/]+)\/services\/([^/]+)\/pipes(?:\/([^/]+)(\/settings)?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Operation = 'create' | 'update' | 'readSettings';
type TableMapping = { sourceSchemaName: string; sourceTable: string; targetTable: string } & Record<
  string,
  unknown
>;

/** An answer other than success; turned into the service's error body. */
class PipesApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The pipes management API of pipes-api.md, with the real service's behaviour where the contract is silent. */
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

  /** Holds a pipe in a state (for example Paused, to allow table mapping edits) until set again. */
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

  /** The state the service reports now; computed from the time since creation, so no timers run. */
  private stateOf(pipe: StoredPipe): PipeState {
    if (pipe.pinnedState !== null) return pipe.pinnedState;
    const elapsed = this.now() - Date.parse(pipe.createdAt);
    const { phases, last } = this.timelineOf(pipe);
    let phaseEnd = 0;
    for (const [state, durationMs] of phases) {
      phaseEnd += durationMs;
      if (elapsed < phaseEnd) return state;
    }
    return last;
  }

  protected handle(request: SimulatorRequest): SimulatorReply {
    const route = PIPES_ROUTE.exec(request.path);
    if (route === null) return this.errorReply(404, `No route for ${request.method} ${request.path}`);
    const [, organizationId, serviceId, pipeId, settingsSuffix] = route;
    const operation = operationOf(request.method, pipeId !== undefined, settingsSuffix !== undefined);
    if (operation === null) return this.errorReply(405, `Method ${request.method} is not allowed here`);

    const key = this.authenticate(request.headers.authorization);
    if (key === null) return this.errorReply(401, 'Unauthorized: missing or invalid API key');
    const limit = this.rateLimiter?.hit(key.keyId);
    if (limit && !limit.allowed) return this.rateLimitedReply(limit.resetSeconds);
    if (key.readOnly && operation !== 'readSettings') {
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

    try {
      switch (operation) {
        case 'create':
          return this.create(organizationId.toLowerCase(), serviceId.toLowerCase(), request);
        case 'update':
          return this.update(this.pipeAt(organizationId, serviceId, pipeId), request);
        case 'readSettings':
          return envelope(this.pipeAt(organizationId, serviceId, pipeId).settings);
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
    if (
      pipe === undefined ||
      pipe.organizationId !== organizationId.toLowerCase() ||
      pipe.serviceId !== serviceId.toLowerCase()
    ) {
      throw new PipesApiError(404, `Pipe ${pipeId} not found`);
    }
    return pipe;
  }

  private create(organizationId: string, serviceId: string, request: SimulatorRequest): SimulatorReply {
    const body = objectBody(request.body);
    rejectProblems([...pipeBodyProblems(body, 'create'), ...createRuleProblems(body)]);
    const { validateSamples: _validateSamples, ...source } = structuredClone(
      body.source as Record<string, unknown>,
    );
    const sourceKind = sourceKindsIn(source)[0];
    if (sourceKind === 'postgres') {
      const postgres = source.postgres as Record<string, unknown>;
      postgres.settings = { ...DEFAULT_POSTGRES_SETTINGS, ...(postgres.settings as object | undefined) };
    }
    const createdAt = new Date(this.now()).toISOString();
    const pipe: StoredPipe = {
      id: randomUUID(),
      organizationId,
      serviceId,
      sourceKind,
      name: body.name as string,
      scaling: { ...DEFAULT_SCALING, ...structuredClone(body.scaling as object | undefined) },
      source,
      destination: structuredClone(body.destination as Record<string, unknown>),
      fieldMappings: structuredClone((body.fieldMappings as unknown[] | undefined) ?? []),
      settings: structuredClone((body.settings as Record<string, unknown> | undefined) ?? {}),
      createdAt,
      updatedAt: createdAt,
      pinnedState: null,
    };
    this.pipes.set(pipe.id, pipe);
    return envelope(this.shownPipe(pipe, request.echoSecrets));
  }

  /** Fields left out keep their values; objects are merged field by field and arrays replaced. */
  private update(pipe: StoredPipe, request: SimulatorRequest): SimulatorReply {
    const patch = structuredClone(objectBody(request.body));
    const problems = pipeBodyProblems(patch, 'update');
    if (isRecord(patch.source)) {
      for (const kind of sourceKindsIn(patch.source)) {
        if (kind !== pipe.sourceKind)
          problems.push(`source.${kind}: the pipe's source is ${pipe.sourceKind}`);
      }
    }
    if (patch.name === '') problems.push('name: must not be empty');
    rejectProblems(problems);

    const updated = structuredClone(pipe);
    const sourcePatch = patch.source as Record<string, unknown> | undefined;
    delete sourcePatch?.validateSamples;
    const postgresPatch = sourcePatch?.postgres as Record<string, unknown> | undefined;
    if (
      postgresPatch &&
      ('tableMappingsToAdd' in postgresPatch || 'tableMappingsToRemove' in postgresPatch)
    ) {
      const state = this.stateOf(pipe);
      if (state !== 'Paused') {
        throw new PipesApiError(400, `Pipe is ${state}: the pipe must be paused to edit table mappings`);
      }
      const postgres = updated.source.postgres as Record<string, unknown>;
      postgres.tableMappings = editedTableMappings(
        (postgres.tableMappings as TableMapping[] | undefined) ?? [],
        (postgresPatch.tableMappingsToRemove as TableMapping[] | undefined) ?? [],
        (postgresPatch.tableMappingsToAdd as TableMapping[] | undefined) ?? [],
      );
      delete postgresPatch.tableMappingsToAdd;
      delete postgresPatch.tableMappingsToRemove;
    }
    mergeInto(updated as unknown as Record<string, unknown>, patch);
    updated.updatedAt = new Date(this.now()).toISOString();
    this.pipes.set(updated.id, updated);
    return envelope(this.shownPipe(updated, request.echoSecrets));
  }

  private shownPipe(pipe: StoredPipe, echoSecrets: boolean): Record<string, unknown> {
    const { name, scaling, source, destination, fieldMappings, settings } = pipe;
    const shown = shownPipeFields(
      { name, scaling, source, destination, fieldMappings, settings },
      echoSecrets,
    );
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

  private timelineOf(pipe: StoredPipe): { phases: Array<[PipeState, number]>; last: PipeState } {
    const delays = this.stateDelaysMs;
    if (pipe.sourceKind === 'postgres') {
      return {
        phases: [
          ['Provisioning', delays.provisioning],
          ['Setup', delays.setup],
          ['Snapshot', delays.snapshot],
        ],
        last: 'Running',
      };
    }
    const objectStorage = pipe.source.objectStorage as Record<string, unknown> | undefined;
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

function operationOf(method: string, hasPipeId: boolean, isSettings: boolean): Operation | null {
  if (!hasPipeId) return method === 'POST' ? 'create' : null;
  if (isSettings) return method === 'GET' ? 'readSettings' : null;
  return method === 'PATCH' ? 'update' : null;
}

function envelope(result: unknown): SimulatorReply {
  return jsonReply(200, { status: 200, requestId: randomUUID(), result });
}

function objectBody(body: RequestBody): Record<string, unknown> {
  if (body.kind === 'malformed') throw new PipesApiError(400, `Malformed JSON body: ${body.error}`);
  if (body.kind === 'empty' || !isRecord(body.value)) {
    throw new PipesApiError(400, 'The request body must be a JSON object');
  }
  return body.value;
}

function rejectProblems(problems: string[]): void {
  if (problems.length > 0) throw new PipesApiError(400, `Invalid request body: ${problems.join('; ')}`);
}

function sourceKindsIn(source: Record<string, unknown>): SourceKind[] {
  return SOURCE_KINDS.filter((kind) => source[kind] !== undefined);
}

function createRuleProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (body.name === undefined) problems.push('name: required');
  else if (body.name === '') problems.push('name: must not be empty');
  if (body.source === undefined) problems.push('source: required');
  else if (isRecord(body.source) && sourceKindsIn(body.source).length !== 1) {
    problems.push(`source: exactly one of ${SOURCE_KINDS.join(', ')} is required`);
  }
  if (body.destination === undefined) problems.push('destination: required');
  problems.push(...unmappedColumnProblems(body));
  return problems;
}

/** The contract's create rule: every destination column is the destinationField of some field mapping. */
function unmappedColumnProblems(body: Record<string, unknown>): string[] {
  const columns =
    isRecord(body.destination) && Array.isArray(body.destination.columns) ? body.destination.columns : [];
  const mappings = Array.isArray(body.fieldMappings) ? body.fieldMappings : [];
  const mapped = new Set(mappings.filter(isRecord).map((mapping) => mapping.destinationField));
  return columns
    .filter(isRecord)
    .filter((column) => typeof column.name === 'string' && !mapped.has(column.name))
    .map((column) => `fieldMappings: destination column ${String(column.name)} is not mapped`);
}

/** Removals first, so one update can replace a mapping; a target table takes one source table only. */
function editedTableMappings(
  current: TableMapping[],
  toRemove: TableMapping[],
  toAdd: TableMapping[],
): TableMapping[] {
  const problems: string[] = [];
  const sameTable = (a: TableMapping, b: TableMapping): boolean =>
    a.sourceSchemaName === b.sourceSchemaName &&
    a.sourceTable === b.sourceTable &&
    a.targetTable === b.targetTable;
  let mappings = [...current];
  toRemove.forEach((removed, index) => {
    if (!mappings.some((mapping) => sameTable(mapping, removed))) {
      problems.push(`source.postgres.tableMappingsToRemove[${index}]: no such table mapping`);
    }
    mappings = mappings.filter((mapping) => !sameTable(mapping, removed));
  });
  toAdd.forEach((added, index) => {
    if (mappings.some((mapping) => mapping.targetTable === added.targetTable)) {
      problems.push(
        `source.postgres.tableMappingsToAdd[${index}]: target table ${added.targetTable} is already mapped`,
      );
    } else {
      mappings.push(added);
    }
  });
  rejectProblems(problems);
  return mappings;
}

function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(patch)) {
    const current = target[name];
    if (isRecord(value) && isRecord(current)) mergeInto(current, value);
    else target[name] = value;
  }
}
