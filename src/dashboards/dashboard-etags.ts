import { canonicalJson, sha256Hex } from '../common/canonical-json';
import type { DashboardEnvelope } from '../upstream/dashboards-api.client';
import type { UpstreamResponse } from '../upstream/upstream-http';

/** Tags kept before the table starts over; each is two short strings. */
const MAX_REMEMBERED = 10_000;

/** ETag of a dashboard's content: equal content, equal tag, however the JSON was ordered. */
export function dashboardEtag(data: unknown): string {
  return `"${sha256Hex(canonicalJson(data)).slice(0, 32)}"`;
}

/**
 * ETags of dashboards as the dashboards API answered them, remembered by the answer's digest.
 * Canonicalising and hashing a dashboard was the largest cost of a proxied read that is the
 * gateway's own, and a dashboard read again unchanged arrives as the same text: its tag is then
 * looked up instead of worked out again. The digest covers everything the redacted body depends
 * on, so a remembered tag is the one the body would give.
 */
export class DashboardEtags {
  private readonly byDigest = new Map<string, string>();

  of(response: UpstreamResponse<DashboardEnvelope>): string {
    const digest = response.answerDigest;
    if (digest === undefined) return dashboardEtag(response.body.data);
    let etag = this.byDigest.get(digest);
    if (etag === undefined) {
      etag = dashboardEtag(response.body.data);
      if (this.byDigest.size >= MAX_REMEMBERED) this.byDigest.clear();
      this.byDigest.set(digest, etag);
    }
    return etag;
  }
}
