import { installTraceBackend } from './tracing';
import { tracingSettings, type TracingSettings } from './tracing-settings';

let started: { settings: TracingSettings; shutdown: () => Promise<void> } | null = null;

/**
 * Starts the OpenTelemetry SDK when `env` configures an exporter (tracing-settings.ts), before the
 * modules it instruments load: main.ts imports register.ts first. Off, the SDK is not even loaded.
 */
export function startTracing(env: Record<string, string | undefined>): TracingSettings | null {
  const settings = tracingSettings(env);
  if (settings === null || started !== null) return settings;
  // Required here, not imported: a gateway without tracing never loads the SDK.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  const tracing = sdk.startTracingSdk(settings);
  installTraceBackend(tracing.backend);
  started = { settings, shutdown: () => tracing.shutdown() };
  return settings;
}

/** What tracing exports to, for the start banner; null while it is off. */
export function tracingStarted(): TracingSettings | null {
  return started?.settings ?? null;
}

/** Exports the spans still held; at shutdown, after the last request. */
export async function stopTracing(): Promise<void> {
  // A collector that is away costs those spans, not a clean stop.
  await started?.shutdown().catch(() => undefined);
}
