/**
 * When a browser session ends: at its absolute expiry (SESSION_TTL_HOURS), when revoked, or once nobody has used it
 * for the idle limit (SESSION_IDLE_MINUTES). Each is the same ending: the same 401 and no way back.
 */

/** The last use is recorded at this resolution, so most requests only read the session. */
export const LAST_USE_RESOLUTION_MS = 60_000;

export interface SessionTimes {
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt: Date;
}

/** A session last used at or before this instant has been idle too long at `now`. */
export const idleCutoff = (now: Date, idleMinutes: number): Date => new Date(now.getTime() - idleMinutes * 60_000);

export function sessionUsable(session: SessionTimes, now: Date, idleMinutes: number): boolean {
  return sessionEndable(session, now) && session.lastSeenAt > idleCutoff(now, idleMinutes);
}

/**
 * Whether signing out can still end the session: one idle past the limit can, so its sign-out does everything a live
 * one's does (the provider's end-session URL included); a revoked or expired one is over.
 */
export const sessionEndable = (session: SessionTimes, now: Date): boolean => !session.revokedAt && session.expiresAt > now;

/** Whether this use should be written: the recorded last use is a resolution step or more behind. */
export const lastUseOutdated = (lastSeenAt: Date, now: Date): boolean => now.getTime() - lastSeenAt.getTime() >= LAST_USE_RESOLUTION_MS;
