import { toProblem } from '../common/problem/to-problem';
import { alreadyReviewed } from './audit-reviews.service';

describe('the refusal of a range already reviewed', () => {
  const review = (actor: string) => ({
    seq: 41,
    at: new Date('2026-11-29T08:00:00Z'),
    actor,
    onBehalfOf: null,
    details: { fromSeq: 1, throughSeq: 40 },
  });

  it('names a person who reviewed by their address, whole, through the scrub of every problem', () => {
    const { body } = toProblem(alreadyReviewed(40, review('user:erin@example.com'), 45), 'request-1');
    expect(body.detail).toContain('by the person erin@example.com at 2026-11-29T08:00:00.000Z');
    expect(body.detail).toContain('review through a seq from 41 to 45');
  });

  it('names a key that reviewed by its actor name', () => {
    const { body } = toProblem(alreadyReviewed(40, review('key:0d1e2f'), 40), 'request-1');
    expect(body.detail).toContain('by key:0d1e2f at');
    expect(body.detail).toContain('no event is waiting for review');
  });
});
