import { WriteSlots } from './write-admission';

/** Takes `count` slots for `tenant`; answers the release functions, failing if one is refused. */
function take(slots: WriteSlots, tenant: string, count: number): (() => void)[] {
  return Array.from({ length: count }, () => {
    const taken = slots.take(tenant);
    if (typeof taken !== 'function') throw new Error(`${tenant} was refused: ${taken}`);
    return taken;
  });
}

describe('WriteSlots', () => {
  it('lets one tenant alone use all but one share of the slots', () => {
    const slots = new WriteSlots(64, 8);
    take(slots, 'a', 56);
    expect(slots.take('a')).toBe('over-share');
    // Another tenant still gets its whole share, and then the process is full.
    take(slots, 'b', 8);
    expect(slots.take('c')).toBe('full');
  });

  it('keeps the unused share of every tenant with writes in flight free for it', () => {
    const slots = new WriteSlots(10, 3);
    take(slots, 'b', 1);
    // Free: 9; kept for b (2 more) and for one newcomer (3): a may go to 4.
    take(slots, 'a', 4);
    expect(slots.take('a')).toBe('over-share');
    take(slots, 'b', 2);
    take(slots, 'c', 3);
    expect(slots.take('d')).toBe('full');
  });

  it('admits below the share whenever a slot is free', () => {
    const slots = new WriteSlots(4, 2);
    take(slots, 'a', 2);
    take(slots, 'b', 2);
    expect(slots.take('a')).toBe('full');
    expect(slots.take('c')).toBe('full');
  });

  it('gives slots back once, and forgets a tenant with none in flight', () => {
    const slots = new WriteSlots(4, 1);
    const [first, ...rest] = take(slots, 'a', 3);
    expect(slots.take('a')).toBe('over-share');
    first();
    first();
    const again = take(slots, 'a', 1);
    expect(slots.take('a')).toBe('over-share');
    for (const release of [...rest, ...again]) release();
    // Nothing in flight: the whole limit but one share is a's again.
    take(slots, 'a', 3);
  });

  it('guarantees the share of a tenant that arrives while another fills its part', () => {
    const slots = new WriteSlots(8, 2);
    const hog = take(slots, 'hog', 6);
    expect(slots.take('hog')).toBe('over-share');
    take(slots, 'late', 2);
    expect(slots.take('other')).toBe('full');
    for (const release of hog) release();
    take(slots, 'other', 2);
  });
});
