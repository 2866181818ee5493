export const AUDIT_QUEUE = 'audit';
/** The job that applies the retention tier; scheduled daily, also enqueued by tests. */
export const RETENTION_JOB = 'retention';
/** Daily at 03:15 UTC: a quiet hour, and long after the previous day has settled (ARCHIVE_SETTLE_MS). */
export const RETENTION_SCHEDULE = { pattern: '15 3 * * *', tz: 'UTC' };
