import { randomBytes } from 'node:crypto';
import { bearerToken, secretsEqual } from './authorization';
import { dashboardBodyIssues, knownDashboardFields, knownTileFields } from './dashboard-body';
import type { Dashboard, DashboardBody } from './dashboard-body';
import { emptyReply, HttpSimulator, jsonReply, textReply } from './http-simulator';
import type { ControlRoute, SimulatorOptions, SimulatorReply, SimulatorRequest } from './http-simulator';

export interface DashboardsSimulatorOptions extends SimulatorOptions {
  /** Bearer tokens the simulator accepts. */
  tokens: string[];
}

/** What seedDashboard takes: a dashboard whose ids may be left out. */
export type DashboardSeed = Omit<DashboardBody, 'tiles'> & {
  /** 24 hex characters; a new one when left out. An existing dashboard with this id is replaced. */
  id?: string;
  /** Tile ids given here are kept as they are, so a test can refer to them. */
  tiles?: DashboardBody['tiles'];
};

export class DashboardSeedError extends Error {}

const DASHBOARD_ROUTE = /^\/api\/v2\/dashboards(?:\/([^/]+))?$/;
const OBJECT_ID = /^[0-9a-f]{24}$/i;
// The real server's limit per token, reported by an injected 429 when no limit is configured here.
const REAL_SERVICE_LIMIT = 100;

/**
 * The dashboards API of dashboards-api.md with the operations the contract leaves out (list, create,
 * delete), answering as the real open-source server does: plain-text auth and not-found bodies,
 * `{message}` validation errors, tile ids kept only when they match an existing tile, tiles of the 2025
 * API (`series`) and of today's (`config`), a PUT that keeps the dashboard fields it leaves out, and no
 * versions (the last write wins).
 */
export class DashboardsSimulator extends HttpSimulator {
  private readonly tokens: string[];
  private readonly dashboards = new Map<string, Dashboard>();

  constructor(options: DashboardsSimulatorOptions) {
    super(options);
    this.tokens = [...options.tokens];
  }

  /** Stores a dashboard as if created in the server's own interface, ids as given. */
  seedDashboard(seed: DashboardSeed): Dashboard {
    const { id, ...fields } = seed;
    if (id !== undefined && !OBJECT_ID.test(id)) {
      throw new DashboardSeedError(`id must be 24 hex characters, got ${id}`);
    }
    const body = { ...fields, tiles: seed.tiles ?? [], tags: seed.tags ?? [] };
    const issues = dashboardBodyIssues(body);
    if (issues.length > 0) throw new DashboardSeedError(`invalid dashboard: ${issues.join('; ')}`);
    const dashboard = stored(
      id?.toLowerCase() ?? newObjectId(),
      body,
      undefined,
      (tile) => tile.id || newObjectId(),
    );
    this.dashboards.set(dashboard.id, dashboard);
    return structuredClone(dashboard);
  }

  storedDashboard(id: string): Dashboard | undefined {
    const dashboard = this.dashboards.get(id.toLowerCase());
    return dashboard && structuredClone(dashboard);
  }

  protected handle(request: SimulatorRequest): SimulatorReply {
    const route = DASHBOARD_ROUTE.exec(request.path);
    const allowed = route?.[1] === undefined ? ['GET', 'POST'] : ['GET', 'PUT', 'DELETE'];
    if (route === null || !allowed.includes(request.method)) {
      return this.errorReply(404, `Cannot ${request.method} ${request.path}`);
    }
    // The server parses JSON before anything else, so a garbled body fails even without a token.
    if (request.body.kind === 'malformed') {
      return jsonReply(400, { message: `Malformed JSON body: ${request.body.error}` });
    }
    // Counted before authentication, keyed by the presented header: bad tokens use up the limit too.
    const limit = this.rateLimiter?.hit(request.headers.authorization ?? request.remoteAddress);
    if (limit && !limit.allowed) return this.rateLimitedReply(limit.resetSeconds);
    const reply = this.authorizedCall(request, route[1]);
    return limit
      ? withHeaders(reply, rateLimitHeaders(limit.limit, limit.remaining, limit.resetSeconds))
      : reply;
  }

  protected errorReply(status: number, message: string): SimulatorReply {
    return textReply(status, message);
  }

  protected rateLimitedReply(retryAfterSeconds: number): SimulatorReply {
    const limit = this.rateLimiter?.rule.limit ?? REAL_SERVICE_LIMIT;
    return textReply(429, 'Too many requests, please try again later.', {
      ...rateLimitHeaders(limit, 0, retryAfterSeconds),
      'retry-after': String(retryAfterSeconds),
    });
  }

  protected resetData(): void {
    this.dashboards.clear();
  }

  protected override controlRoutes(): ControlRoute[] {
    return [
      {
        method: 'POST',
        path: /^\/dashboards$/,
        handle: (_params, body) => {
          try {
            return jsonReply(201, { data: this.seedDashboard(body as DashboardSeed) });
          } catch (error) {
            if (error instanceof DashboardSeedError) return jsonReply(400, { error: error.message });
            throw error;
          }
        },
      },
    ];
  }

  private authorizedCall(request: SimulatorRequest, id: string | undefined): SimulatorReply {
    const token = bearerToken(request.headers.authorization);
    if (token === null || !this.tokens.some((accepted) => secretsEqual(token, accepted))) {
      return this.errorReply(401, 'Unauthorized');
    }
    // An empty body reads as {}, as it does on the server.
    const body =
      request.method === 'PUT' || request.method === 'POST'
        ? request.body.kind === 'json'
          ? request.body.value
          : {}
        : undefined;
    const issues: string[] = [];
    if (body !== undefined) {
      const bodyIssues = dashboardBodyIssues(body);
      if (bodyIssues.length > 0) issues.push(`Body validation failed: ${bodyIssues.join('; ')}`);
    }
    if (id !== undefined && !OBJECT_ID.test(id))
      issues.push('Params validation failed: id: Invalid ObjectId');
    if (issues.length > 0) return jsonReply(400, { message: issues.join('; ') });

    if (id === undefined) {
      if (request.method === 'GET') return this.answer(request, [...this.dashboards.values()]);
      const created = stored(newObjectId(), body as DashboardBody, undefined, () => newObjectId());
      this.dashboards.set(created.id, created);
      return this.answer(request, created);
    }
    const current = this.dashboards.get(id.toLowerCase());
    if (current === undefined) return this.errorReply(404, 'Not Found');
    if (request.method === 'DELETE') {
      this.dashboards.delete(current.id);
      return emptyReply();
    }
    const dashboard = body === undefined ? current : replaced(current, body as DashboardBody);
    this.dashboards.set(dashboard.id, dashboard);
    return this.answer(request, dashboard);
  }

  private answer(request: SimulatorRequest, data: Dashboard | Dashboard[]): SimulatorReply {
    const echoed = (dashboard: Dashboard): object =>
      request.echoSecrets ? { ...dashboard, authorization: request.headers.authorization } : dashboard;
    return jsonReply(200, { data: Array.isArray(data) ? data.map(echoed) : echoed(data) });
  }
}

export async function startDashboardsSimulator(
  options: DashboardsSimulatorOptions,
): Promise<DashboardsSimulator> {
  return new DashboardsSimulator(options).listen();
}

/**
 * A PUT replaces the tiles: left-out tiles are gone, and only ids of tiles that still exist survive.
 * Other dashboard fields the body leaves out keep their values.
 */
function replaced(current: Dashboard, body: DashboardBody): Dashboard {
  const existingTileIds = new Set(current.tiles.map((tile) => tile.id));
  return stored(current.id, body, current, (tile) =>
    tile.id !== undefined && existingTileIds.has(tile.id) ? tile.id : newObjectId(),
  );
}

function stored(
  id: string,
  body: DashboardBody,
  current: Dashboard | undefined,
  tileId: (tile: DashboardBody['tiles'][number]) => string,
): Dashboard {
  const { tags, ...fields } = knownDashboardFields(body);
  return {
    ...current,
    ...fields,
    id,
    tiles: body.tiles.map((tile) => knownTileFields(tile, tileId(tile))),
    // The server keeps each tag once.
    tags: tags === undefined ? (current?.tags ?? []) : [...new Set(tags)],
  };
}

function newObjectId(): string {
  return randomBytes(12).toString('hex');
}

function rateLimitHeaders(limit: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(resetSeconds),
  };
}

function withHeaders(reply: SimulatorReply, headers: Record<string, string>): SimulatorReply {
  return { ...reply, headers: { ...reply.headers, ...headers } };
}
