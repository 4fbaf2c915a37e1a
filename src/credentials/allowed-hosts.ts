const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' };

/**
 * Whether DASHBOARDS_ALLOWED_HOSTS admits a base address: an entry `host:port` admits that port,
 * an entry without a port only the default port of the address's scheme.
 */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const defaultPort = DEFAULT_PORTS[url.protocol];
  const port = url.port || defaultPort;
  return allowedHosts.includes(`${host}:${port}`) || (port === defaultPort && allowedHosts.includes(host));
}

export const NOT_ALLOWED_HOST =
  "baseUrl's host and port must be in DASHBOARDS_ALLOWED_HOSTS (an entry without a port admits only the scheme's default port)";
