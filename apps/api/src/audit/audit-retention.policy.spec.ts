import { archiveExpiredBefore, archiveFileName, monthPeriods, parseArchiveFileName, planRetention, startOfUtcDay, windowStart } from './audit-retention.policy';

const at = (iso: string) => new Date(iso);

describe('retention windows', () => {
  it('counts days and calendar years back in UTC', () => {
    expect(windowStart(at('2026-05-20T10:00:00Z'), { days: 90 })).toEqual(at('2026-02-19T10:00:00Z'));
    expect(windowStart(at('2026-05-20T10:00:00Z'), { years: 1 })).toEqual(at('2025-05-20T10:00:00Z'));
    expect(windowStart(at('2026-05-20T10:00:00Z'), { years: 7 })).toEqual(at('2019-05-20T10:00:00Z'));
  });

  it('cuts a span at UTC month boundaries', () => {
    expect(monthPeriods(at('2026-01-15T06:00:00Z'), at('2026-03-02T00:00:00Z'))).toEqual([
      { from: at('2026-01-15T06:00:00Z'), to: at('2026-02-01T00:00:00Z') },
      { from: at('2026-02-01T00:00:00Z'), to: at('2026-03-01T00:00:00Z') },
      { from: at('2026-03-01T00:00:00Z'), to: at('2026-03-02T00:00:00Z') },
    ]);
    expect(monthPeriods(at('2026-03-01T00:00:00Z'), at('2026-03-01T00:00:00Z'))).toEqual([]);
    expect(monthPeriods(at('2026-03-02T00:00:00Z'), at('2026-03-01T00:00:00Z'))).toEqual([]);
  });

  it('starts the day in UTC', () => {
    expect(startOfUtcDay(at('2026-03-01T23:59:59.999Z'))).toEqual(at('2026-03-01T00:00:00Z'));
  });
});

describe('planRetention', () => {
  const now = at('2026-05-20T10:00:00Z');

  it('standard: 90 days in the database and no archive', () => {
    expect(planRetention('standard', now, null)).toEqual({ tier: 'standard', databaseCutoff: at('2026-02-19T10:00:00Z'), archive: null });
  });

  it('extended: a year in the database; a first run archives the last year up to the start of today', () => {
    const plan = planRetention('extended', now, null);
    expect(plan.databaseCutoff).toEqual(at('2025-05-20T10:00:00Z'));
    expect(plan.archive?.expireBefore).toEqual(at('2025-05-20T10:00:00Z'));
    expect(plan.archive?.through).toEqual(at('2026-05-20T00:00:00Z'));
    const periods = plan.archive!.periods;
    expect(periods[0]).toEqual({ from: at('2025-05-20T10:00:00Z'), to: at('2025-06-01T00:00:00Z') });
    expect(periods.at(-1)).toEqual({ from: at('2026-05-01T00:00:00Z'), to: at('2026-05-20T00:00:00Z') });
    expect(periods).toHaveLength(13);
  });

  it('compliance: a year in the database, seven in the archive', () => {
    const plan = planRetention('compliance', now, null);
    expect(plan.databaseCutoff).toEqual(at('2025-05-20T10:00:00Z'));
    expect(plan.archive?.expireBefore).toEqual(at('2019-05-20T10:00:00Z'));
    expect(plan.archive?.periods[0].from).toEqual(at('2019-05-20T10:00:00Z'));
  });

  it('archive files past the configured window count as expired; standard, which deletes none, allows for a year', () => {
    expect(archiveExpiredBefore('compliance', now)).toEqual(at('2019-05-20T10:00:00Z'));
    expect(archiveExpiredBefore('extended', now)).toEqual(planRetention('extended', now, null).archive!.expireBefore);
    expect(archiveExpiredBefore('standard', now)).toEqual(at('2025-05-20T10:00:00Z'));
  });

  it('continues where the archive ends: the next daily run writes one day', () => {
    const plan = planRetention('compliance', now, at('2026-05-19T00:00:00Z'));
    expect(plan.archive?.periods).toEqual([{ from: at('2026-05-19T00:00:00Z'), to: at('2026-05-20T00:00:00Z') }]);
    expect(planRetention('compliance', now, at('2026-05-20T00:00:00Z')).archive?.periods).toEqual([]);
  });

  it('never archives beyond the archive window, even after a long pause', () => {
    const plan = planRetention('extended', now, at('2020-01-01T00:00:00Z'));
    expect(plan.archive?.periods[0].from).toEqual(at('2025-05-20T10:00:00Z'));
  });

  it('leaves the last hour for the next run: shortly after midnight the previous day is not yet settled', () => {
    const plan = planRetention('extended', at('2026-05-20T00:30:00Z'), at('2026-05-18T00:00:00Z'));
    expect(plan.archive?.periods).toEqual([{ from: at('2026-05-18T00:00:00Z'), to: at('2026-05-19T00:00:00Z') }]);
  });

  it('always deletes from the database only what the archive step has covered', () => {
    for (const tier of ['extended', 'compliance'] as const) {
      const plan = planRetention(tier, now, null);
      expect(plan.databaseCutoff.getTime()).toBeLessThanOrEqual(plan.archive!.through.getTime());
    }
  });
});

describe('archive file names', () => {
  it('round-trip the period with millisecond precision and sort by time', () => {
    const period = { from: at('2025-05-20T10:00:00.123Z'), to: at('2025-06-01T00:00:00Z') };
    const name = archiveFileName(period);
    expect(name).toBe('audit-20250520T100000.123Z-20250601T000000.000Z.ndjson.gz');
    expect(parseArchiveFileName(name)).toEqual(period);
    expect(archiveFileName({ from: at('2024-01-01T00:00:00Z'), to: at('2024-02-01T00:00:00Z') }) < name).toBe(true);
  });

  it('rejects anything else', () => {
    expect(parseArchiveFileName('audit-20250601T000000.000Z-20250520T100000.123Z.ndjson.gz')).toBeNull();
    expect(parseArchiveFileName('notes.txt')).toBeNull();
    expect(parseArchiveFileName('audit-20251340T000000.000Z-20260101T000000.000Z.ndjson.gz')).toBeNull();
  });
});
