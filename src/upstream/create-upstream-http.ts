import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { MetricsService } from '../metrics/metrics.service';
import type { UpstreamName } from './upstream-errors';
import { DEFAULT_RETRY_POLICY, UpstreamHttp } from './upstream-http';

/**
 * The HTTP client of one upstream as configured: its address, the deadline, proxies and answer cap
 * shared by both, and its attempts counted in the metrics under its name.
 */
export function createUpstreamHttp(
  name: UpstreamName,
  config: ConfigService<AppConfig, true>,
  metrics: MetricsService,
): UpstreamHttp {
  const upstream = config.get('upstream', { infer: true });
  return new UpstreamHttp(
    name,
    name === 'pipes' ? upstream.pipesApiUrl : upstream.dashboardsApiUrl,
    upstream.timeoutMs,
    DEFAULT_RETRY_POLICY,
    (attempt) => metrics.upstreamAttempt(name, attempt),
    upstream,
  );
}
