import { ConfigError } from '../config/app-config';

/** The OTLP encodings over HTTP the gateway exports spans in. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TracingSettings {
  protocol: OtlpProtocol;
  /** Where spans go, as configured: the traces endpoint itself, or the base the exporter adds `/v1/traces` to. */
  endpoint: string;
  /** The variable `endpoint` was read from. */
  endpointVariable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT';
}

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];

/**
 * Whether spans are exported, from OpenTelemetry's own variables: only when an OTLP endpoint is set
 * and neither OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none turns tracing off; null otherwise. The
 * SDK reads the others itself (service name, sampler, resource attributes, headers, batching).
 */
export function tracingSettings(env: Record<string, string | undefined>): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim() || 'otlp';
  if (exporter === 'none') return null;
  if (exporter !== 'otlp') {
    throw new ConfigError('OTEL_TRACES_EXPORTER', `must be otlp or none (got "${exporter}")`);
  }
  const endpointVariable = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = env[endpointVariable]?.trim();
  if (!endpoint) return null;
  let url: URL | null = null;
  try {
    url = new URL(endpoint);
  } catch {
    // Named below, with the value's shape.
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError(endpointVariable, 'must be an http or https URL, such as http://collector:4318');
  }
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVariable]?.trim() || 'http/protobuf';
  if (!PROTOCOLS.includes(protocol as OtlpProtocol)) {
    throw new ConfigError(protocolVariable, `must be ${PROTOCOLS.join(' or ')} (got "${protocol}")`);
  }
  return { protocol: protocol as OtlpProtocol, endpoint, endpointVariable };
}
