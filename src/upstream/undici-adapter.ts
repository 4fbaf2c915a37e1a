import { AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { Agent, request } from 'undici';

/**
 * A lean axios adapter over undici: keep-alive connection pools, a connect timeout and a total
 * deadline per attempt. axios's default Node adapter (redirects, proxy-from-env, stream
 * decompression) costs about half the throughput of the proxy path, and the upstream APIs need
 * none of that. Bodies are returned as text; the clients parse them so a malformed body is seen.
 */
export function createUndiciAdapter(options: { connectTimeoutMs: number }): {
  adapter: AxiosAdapter;
  close: () => Promise<void>;
} {
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs },
    keepAliveTimeout: 30_000,
    connections: 64,
  });

  const adapter: AxiosAdapter = async (
    config: InternalAxiosRequestConfig,
  ): Promise<AxiosResponse<string>> => {
    // Appended, not resolved: a base address with a path prefix (a self-hosted dashboards API) keeps it.
    const url = `${(config.baseURL ?? '').replace(/\/+$/, '')}${config.url ?? ''}`;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(AxiosHeaders.from(config.headers).toJSON())) {
      if (value !== undefined && value !== null) headers[name.toLowerCase()] = String(value);
    }
    const body =
      typeof config.data === 'string'
        ? config.data
        : config.data === undefined
          ? undefined
          : JSON.stringify(config.data);
    const timeout = config.timeout && config.timeout > 0 ? config.timeout : undefined;
    const callerSignal = config.signal as AbortSignal | undefined;
    const response = await request(url, {
      dispatcher: agent,
      method: (config.method ?? 'get').toUpperCase() as 'GET',
      headers,
      body,
      // The deadline is the signal's alone: undici's headersTimeout and bodyTimeout run on coarse
      // timers that fire up to half a second early. AbortSignal.any costs a signal and its
      // bookkeeping on every call; only combine when there are two.
      signal:
        timeout && callerSignal
          ? AbortSignal.any([AbortSignal.timeout(timeout), callerSignal])
          : timeout
            ? AbortSignal.timeout(timeout)
            : callerSignal,
    });
    const text = await response.body.text();
    // Plain names and values: axios turns them into AxiosHeaders itself once the adapter returns.
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return {
      data: text,
      status: response.statusCode,
      statusText: '',
      headers: responseHeaders,
      config,
      request: null,
    };
  };

  return { adapter, close: () => agent.close() };
}
