/**
 * Runs `listen`; when a port is taken, fails with a message that names the setting that chose it,
 * since Node's own names only the address. `ports` maps each setting to the port it asked for.
 */
export async function listenOrNameSetting<T>(
  ports: Record<string, number>,
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { port?: number };
    if (failure.code !== 'EADDRINUSE') throw error;
    const named = Object.keys(ports).filter((setting) => ports[setting] === failure.port);
    const settings = (named.length > 0 ? named : Object.keys(ports)).join(' or ');
    const where = failure.port === undefined ? 'a port' : `port ${failure.port}`;
    throw new Error(
      `${where} is in use by another process: stop it, or set ${settings} to a free port (0 picks one)`,
    );
  }
}
