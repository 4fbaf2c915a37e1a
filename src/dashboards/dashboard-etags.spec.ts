import type { DashboardEnvelope } from '../upstream/dashboards-api.client';
import type { UpstreamResponse } from '../upstream/upstream-http';
import { dashboardEtag, DashboardEtags } from './dashboard-etags';

const answer = (
  data: DashboardEnvelope['data'],
  answerDigest?: string,
): UpstreamResponse<DashboardEnvelope> => ({
  status: 200,
  body: { data },
  ...(answerDigest === undefined ? {} : { answerDigest }),
});

describe('dashboardEtag', () => {
  it('is equal for equal content however its keys are ordered, and differs for other content', () => {
    const tag = dashboardEtag({ name: 'a', tiles: [{ x: 1, y: 2 }] });
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(dashboardEtag({ tiles: [{ y: 2, x: 1 }], name: 'a' })).toBe(tag);
    expect(dashboardEtag({ name: 'a', tiles: [{ x: 1, y: 3 }] })).not.toBe(tag);
  });
});

describe('DashboardEtags', () => {
  it('works the tag out from the content when the answer carries no digest', () => {
    const etags = new DashboardEtags();
    expect(etags.of(answer({ name: 'a' }))).toBe(dashboardEtag({ name: 'a' }));
    expect(etags.of(answer({ name: 'b' }))).toBe(dashboardEtag({ name: 'b' }));
  });

  it('gives the tag of an answer digested before without working it out again', () => {
    const etags = new DashboardEtags();
    const tag = etags.of(answer({ name: 'a' }, 'digest-1'));
    expect(tag).toBe(dashboardEtag({ name: 'a' }));
    // A body that differs under the same digest shows the remembered tag was used.
    expect(etags.of(answer({ name: 'not looked at' }, 'digest-1'))).toBe(tag);
    expect(etags.of(answer({ name: 'b' }, 'digest-2'))).toBe(dashboardEtag({ name: 'b' }));
  });

  it('starts over once it holds 10,000 tags, so it cannot grow without bound', () => {
    const etags = new DashboardEtags();
    etags.of(answer({ name: 'first' }, 'digest-first'));
    for (let index = 1; index < 10_000; index++) etags.of(answer({ n: index }, `digest-${index}`));
    expect(etags.of(answer({ name: 'ignored' }, 'digest-first'))).toBe(dashboardEtag({ name: 'first' }));
    etags.of(answer({ n: 'one more' }, 'digest-overflow'));
    expect(etags.of(answer({ name: 'again' }, 'digest-first'))).toBe(dashboardEtag({ name: 'again' }));
  });
});
