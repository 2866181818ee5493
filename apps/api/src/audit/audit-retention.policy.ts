// Audit log retention tiers (docs/sign-in.md#retention): pure rules, no I/O. The service applies them to the table and the archive.

export const AUDIT_RETENTION_TIERS = ['standard', 'extended', 'compliance'] as const;
export type AuditRetentionTier = (typeof AUDIT_RETENTION_TIERS)[number];

/** A span of calendar time, counted back from "now" in UTC. */
export type RetentionWindow = { days: number } | { years: number };

export interface TierPolicy {
  /** How long rows stay in the audit_logs table. */
  database: RetentionWindow;
  /** How long archive files are kept; null: the tier keeps no archive. */
  archive: RetentionWindow | null;
}

/**
 * standard: 90 days in the database, no archive. extended: a year in the database and, as a tamper-evident copy, a
 * year in the archive. compliance: a year in the database (like extended, so the admin screen shows the same) and
 * seven years in the archive.
 */
export const TIER_POLICIES: Readonly<Record<AuditRetentionTier, TierPolicy>> = Object.freeze({
  standard: { database: { days: 90 }, archive: null },
  extended: { database: { years: 1 }, archive: { years: 1 } },
  compliance: { database: { years: 1 }, archive: { years: 7 } },
});

/** Rows written this close to the archive boundary are left for the next run, so late commits are not missed. */
export const ARCHIVE_SETTLE_MS = 60 * 60_000;

/** The moment a window reaches back to: `now` minus the window (calendar years, so leap days count). */
export function windowStart(now: Date, window: RetentionWindow): Date {
  const start = new Date(now.getTime());
  if ('days' in window) start.setUTCDate(start.getUTCDate() - window.days);
  else start.setUTCFullYear(start.getUTCFullYear() - window.years);
  return start;
}

export function startOfUtcDay(moment: Date): Date {
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth(), moment.getUTCDate()));
}

export interface Period {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
}

/** [from, to) cut at UTC month boundaries: a backlog becomes one archive file per month, a daily run one file. */
export function monthPeriods(from: Date, to: Date): Period[] {
  const periods: Period[] = [];
  let start = from;
  while (start < to) {
    const nextMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    const end = nextMonth < to ? nextMonth : to;
    periods.push({ from: start, to: end });
    start = end;
  }
  return periods;
}

export interface RetentionPlan {
  tier: AuditRetentionTier;
  /** Rows created before this leave the database. */
  databaseCutoff: Date;
  archive: null | {
    /** Periods to write, oldest first; empty when the archive is up to date. */
    periods: Period[];
    /** The archive covers everything before this once the periods are written. */
    through: Date;
    /** Archive files whose period ended at or before this are past the archive window. */
    expireBefore: Date;
  };
}

/**
 * What one run does. Archive tiers copy every settled row (up to the start of the day) that the archive does not hold
 * yet, from `archivedThrough` (the end of the newest archive file) but never from beyond the archive window; rows
 * older than both windows are only deleted.
 */
export function planRetention(tier: AuditRetentionTier, now: Date, archivedThrough: Date | null): RetentionPlan {
  const policy = TIER_POLICIES[tier];
  const databaseCutoff = windowStart(now, policy.database);
  if (!policy.archive) return { tier, databaseCutoff, archive: null };
  const expireBefore = windowStart(now, policy.archive);
  const through = startOfUtcDay(new Date(now.getTime() - ARCHIVE_SETTLE_MS));
  const from = archivedThrough && archivedThrough > expireBefore ? archivedThrough : expireBefore;
  return { tier, databaseCutoff, archive: { periods: monthPeriods(from, through), through, expireBefore } };
}

/**
 * Archive files whose period ended at or before this may have been deleted by the window, so verification does not
 * miss them. Standard keeps no archive and deletes none, but files it inherits may have lost their oldest files to an
 * archive tier before: the shortest archive window any tier has stands in.
 */
export function archiveExpiredBefore(tier: AuditRetentionTier, now: Date): Date {
  return windowStart(now, TIER_POLICIES[tier].archive ?? TIER_POLICIES.extended.archive!);
}

const compact = (moment: Date) => moment.toISOString().replace(/[-:]/g, '');
const COMPACT = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z$/;

function parseCompact(text: string): Date | null {
  const m = COMPACT.exec(text);
  if (!m) return null;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `audit-<from>-<to>.ndjson.gz`, UTC with milliseconds, so names sort by time and say what they hold. */
export function archiveFileName(period: Period): string {
  return `audit-${compact(period.from)}-${compact(period.to)}.ndjson.gz`;
}

export function parseArchiveFileName(name: string): Period | null {
  const m = /^audit-(\d{8}T\d{6}\.\d{3}Z)-(\d{8}T\d{6}\.\d{3}Z)\.ndjson\.gz$/.exec(name);
  if (!m) return null;
  const from = parseCompact(m[1]);
  const to = parseCompact(m[2]);
  return from && to && from < to ? { from, to } : null;
}
