import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type Grouping = MetadataStorage['groupByPropertyName'];

const CACHED = Symbol.for('pipes-gateway.validation-metadata-cache');

/**
 * class-validator works out a class's rules again each time it validates an object of it: it tests
 * every decorated class of the application for being an ancestor, filters their rules and groups
 * them by property (typestack/class-validator#2686), much of what a pipe create allocates. The
 * rules of a class are complete once it is defined (its ancestors are defined before it), so each
 * answer is kept. Callers only read the arrays and groupings they get back.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { [CACHED]?: true };
  if (marked[CACHED]) return;
  marked[CACHED] = true;

  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const byTarget = new WeakMap<object, Map<string, ReturnType<Lookup>>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}`;
    let answers = byTarget.get(target);
    if (answers === undefined) byTarget.set(target, (answers = new Map<string, ReturnType<Lookup>>()));
    let metadata = answers.get(key);
    if (metadata === undefined)
      answers.set(key, (metadata = lookup(target, schema, always, strictGroups, groups)));
    return metadata;
  };

  const group: Grouping = storage.groupByPropertyName.bind(storage);
  const grouped = new WeakMap<object, ReturnType<Grouping>>();
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (byProperty === undefined) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
}
