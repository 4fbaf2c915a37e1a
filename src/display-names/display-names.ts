import { Injectable } from '@nestjs/common';
import { DisplayNamesRepository, type NamedId } from './display-names.repository';

/** `<kind>:<id>` as audit events write actors and targets, mapped to a name a person recognises. */
export type DisplayNameMap = Record<string, string>;

type Lookup = (repository: DisplayNamesRepository, tenantId: string, ids: string[]) => Promise<NamedId[]>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `lookup` of the ids that are uuids: another id names nothing those tables hold (nor would it cast). */
const byUuid =
  (lookup: Lookup): Lookup =>
  (repository, tenantId, ids) => {
    const uuids = ids.filter((id) => UUID.test(id));
    return uuids.length === 0 ? Promise.resolve([]) : lookup(repository, tenantId, uuids);
  };

// Where each kind's names come from; a kind not listed is shown as it is written.
const LOOKUPS: Record<string, Lookup> = {
  key: byUuid((repository, tenantId, ids) => repository.keys(tenantId, ids)),
  credential: byUuid((repository, tenantId, ids) => repository.credentials(tenantId, ids)),
  pipe: (repository, tenantId, ids) => repository.pipes(tenantId, ids),
  'pipe-spec': byUuid((repository, tenantId, ids) => repository.pipeSpecs(tenantId, ids)),
  dashboard: (repository, tenantId, ids) => repository.dashboards(tenantId, ids),
  group: byUuid((repository, tenantId, ids) => repository.groups(tenantId, ids)),
  'group-mapping': byUuid((repository, tenantId, ids) => repository.groupMappings(tenantId, ids)),
  // Events name only their own tenant.
  tenant: (repository, tenantId, ids) =>
    ids.includes(tenantId) ? repository.tenant(tenantId) : Promise.resolve([]),
};

// A person signed in with a verified address is named by it; a bare subject is no name.
const PERSON = 'user';

/**
 * Names for what the gateway refers to by id (`key:<id>`, `pipe:<id>`, `dashboard:<id>`, ...), from
 * its own tables only: no upstream call. Things it never named, or has forgotten, are left out.
 */
@Injectable()
export class DisplayNames {
  constructor(private readonly repository: DisplayNamesRepository) {}

  /** The names of `references` (as events write actors and targets) that the gateway knows. */
  async of(tenantId: string, references: Iterable<string | null>): Promise<DisplayNameMap> {
    const idsByKind = new Map<string, Set<string>>();
    const names: DisplayNameMap = {};
    for (const reference of references) {
      if (reference === null) continue;
      const colon = reference.indexOf(':');
      if (colon <= 0) continue;
      const kind = reference.slice(0, colon);
      const id = reference.slice(colon + 1);
      if (kind === PERSON) names[reference] = id;
      else if (Object.hasOwn(LOOKUPS, kind)) idsByKind.set(kind, (idsByKind.get(kind) ?? new Set()).add(id));
    }
    // One kind after another: a page's names take one pooled connection at a time, not one per kind.
    for (const [kind, ids] of idsByKind) {
      for (const row of await LOOKUPS[kind](this.repository, tenantId, [...ids]))
        names[`${kind}:${row.id}`] = row.name;
    }
    return names;
  }

  /** The actors (`key:<id>`) of the tenant's keys named `name`, in any case. */
  async keysNamed(tenantId: string, name: string): Promise<string[]> {
    return (await this.repository.keysNamed(tenantId, name)).map((id) => `key:${id}`);
  }

  /** The names of pipes by their ids. */
  async pipes(tenantId: string, pipeIds: Iterable<string>): Promise<Map<string, string>> {
    const ids = [...new Set(pipeIds)];
    if (ids.length === 0) return new Map();
    const rows = await this.repository.pipes(tenantId, ids);
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}
