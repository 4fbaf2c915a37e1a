/**
 * Runs `listen`; when the port is taken or refused, or the address is not this host's, fails with
 * a message that names the setting that chose it, since Node's own names only the address. `ports`
 * maps each setting to the port it asked for; `hostSetting` names the setting of the address.
 */
export async function listenOrNameSetting<T>(
  ports: Record<string, number>,
  listen: () => Promise<T>,
  hostSetting = 'HOST',
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { port?: number; address?: string };
    const named = Object.keys(ports).filter((setting) => ports[setting] === failure.port);
    const settings = (named.length > 0 ? named : Object.keys(ports)).join(' or ');
    const where = failure.port === undefined ? 'a port' : `port ${failure.port}`;
    switch (failure.code) {
      case 'EADDRINUSE':
        throw new Error(
          `${where} is in use by another process: stop it, or set ${settings} to a free port (0 picks one)`,
        );
      case 'EACCES':
        throw new Error(
          `${where} may not be opened by this user (ports below 1024 need privileges): set ${settings} to 1024 or above`,
        );
      case 'EADDRNOTAVAIL':
        throw new Error(
          `${failure.address ?? 'the address'} is not an address of this host: set ${hostSetting} to one ` +
            'of its addresses (0.0.0.0 listens on all, 127.0.0.1 on this host alone)',
        );
      default:
        throw error;
    }
  }
}
