/**
 * Prisma builds its query compiler from a module that exports the compiler's WebAssembly as
 * base64 text, megabytes of it, and that module stays loaded once the compiler is built: Node's
 * module cache and the requiring module's `children` hold it. Unloaded, the text is collected
 * (peak memory under load counts the live heap one and a half times). A client that needs the
 * compiler again loads the module again.
 */
const QUERY_COMPILER_SOURCE =
  /[\\/]@prisma[\\/]client[\\/]runtime[\\/]query_compiler_[^\\/]*\.wasm-base64\.js$/;

/** Unloads the query compiler's source modules; answers how many were loaded. */
export function unloadQueryCompilerSource(cache: NodeJS.Dict<NodeModule> = require.cache): number {
  const unloaded = new Set<NodeModule>();
  for (const [path, loaded] of Object.entries(cache)) {
    if (loaded === undefined || !QUERY_COMPILER_SOURCE.test(path)) continue;
    delete cache[path];
    unloaded.add(loaded);
  }
  if (unloaded.size === 0) return 0;
  for (const loaded of Object.values(cache)) {
    if (loaded?.children.some((child) => unloaded.has(child))) {
      loaded.children = loaded.children.filter((child) => !unloaded.has(child));
    }
  }
  return unloaded.size;
}
