import { ADVISORY_LOCKS } from './advisory-locks';

describe('advisory lock keys', () => {
  it('are distinct, so no two uses of a lock wait on each other', () => {
    const keys = Object.values(ADVISORY_LOCKS);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
