import { timeOrderedId } from './time-ordered-id';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('timeOrderedId', () => {
  it('is a version 7, RFC 9562 variant UUID carrying the millisecond it was made', () => {
    const before = Date.now();
    const id = timeOrderedId();
    expect(id).toMatch(UUID_V7);
    expect(millisOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it('sorts in creation order, many ids per millisecond included, and never repeats', () => {
    const ids = Array.from({ length: 20_000 }, () => timeOrderedId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays ordered past 4,096 ids in one millisecond and when the clock steps back', () => {
    const at = Date.now() + 60_000;
    const ids = [...Array.from({ length: 5_000 }, () => timeOrderedId(at)), timeOrderedId(at - 1_000)];
    expect([...ids].sort()).toEqual(ids);
    expect(millisOf(ids[ids.length - 1])).toBe(at + 1);
  });
});
