import { idleCutoff, lastUseOutdated, sessionEndable, sessionUsable } from './session-lifetime';

describe('session lifetime', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  const live = { expiresAt: new Date('2026-03-10T00:00:00Z'), revokedAt: null, lastSeenAt: minutesAgo(1) };

  it('keeps a session used within the idle limit, before its expiry and not revoked', () => {
    expect(sessionUsable(live, now, 120)).toBe(true);
    expect(sessionUsable({ ...live, lastSeenAt: minutesAgo(119.9) }, now, 120)).toBe(true);
  });

  it('ends a session idle for the limit or longer, exactly as an expired or revoked one', () => {
    expect(sessionUsable({ ...live, lastSeenAt: minutesAgo(120) }, now, 120)).toBe(false);
    expect(sessionUsable({ ...live, lastSeenAt: minutesAgo(121) }, now, 120)).toBe(false);
    expect(sessionUsable({ ...live, lastSeenAt: minutesAgo(6) }, now, 5)).toBe(false);
    expect(sessionUsable({ ...live, expiresAt: now }, now, 120)).toBe(false);
    expect(sessionUsable({ ...live, revokedAt: minutesAgo(1) }, now, 120)).toBe(false);
  });

  it('lets sign-out end a session gone idle, never a revoked or expired one', () => {
    expect(sessionEndable({ ...live, lastSeenAt: minutesAgo(121) }, now)).toBe(true);
    expect(sessionEndable({ ...live, lastSeenAt: minutesAgo(121), expiresAt: now }, now)).toBe(false);
    expect(sessionEndable({ ...live, lastSeenAt: minutesAgo(121), revokedAt: minutesAgo(1) }, now)).toBe(false);
  });

  it('puts the idle cutoff the limit before now', () => {
    expect(idleCutoff(now, 120)).toEqual(new Date('2026-03-01T10:00:00Z'));
  });

  it('writes the last use only when the recorded one is a minute or more old', () => {
    expect(lastUseOutdated(new Date(now.getTime() - 59_999), now)).toBe(false);
    expect(lastUseOutdated(now, now)).toBe(false);
    expect(lastUseOutdated(minutesAgo(1), now)).toBe(true);
    expect(lastUseOutdated(minutesAgo(90), now)).toBe(true);
  });
});
