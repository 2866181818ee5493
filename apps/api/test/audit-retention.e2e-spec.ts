import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { retentionTask, verifyArchiveTask } from '../src/audit/audit-cli';
import { archiveFileName, startOfUtcDay } from '../src/audit/audit-retention.policy';
import { AUDIT_QUEUE, RETENTION_JOB } from '../src/audit/audit-retention.queue';
import { AuditRetentionRepository } from '../src/audit/audit-retention.repository';
import type { RetentionReport } from '../src/audit/audit-retention.service';
import { AuditRetentionService } from '../src/audit/audit-retention.service';
import { APP_CONFIG, AppConfig } from '../src/config/config';
import { CommandDatabase } from '../src/database/command-database';
import { startFreshTestApp } from './support/fresh-database';
import type { TestApp } from './support/test-app';

/** An audit row written at `at`. */
async function eventAt(t: TestApp, at: Date): Promise<void> {
  await t.dataSource.query(`INSERT INTO audit_logs (event, provider_name, created_at) VALUES ('login', 'local', $1)`, [at]);
}

/** An archive file with a manifest as releases before the chain wrote them: signed, but naming no predecessor. */
async function writeUnchainedPair(config: AppConfig, directory: string, period: { from: Date; to: Date }): Promise<string> {
  const file = archiveFileName(period);
  const bytes = gzipSync(`${JSON.stringify({ id: '00000000-0000-4000-8000-000000000001', event: 'login', created_at: period.from.toISOString() })}\n`);
  const body = { file, rows: 1, from: period.from.toISOString(), to: period.to.toISOString(), sha256: createHash('sha256').update(bytes).digest('hex') };
  const key = Buffer.from(hkdfSync('sha256', config.secretKeyBase, 'hearth', 'audit-archive-v1', 32));
  const hmac = createHmac('sha256', key).update([body.file, body.rows, body.from, body.to, body.sha256].join('\n')).digest('hex');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, file), bytes);
  await writeFile(join(directory, `${file}.manifest.json`), JSON.stringify({ ...body, hmac_sha256: hmac, written_at: period.to.toISOString() }));
  return file;
}

const DAY = 86_400_000;

/** An audit row written `ageDays` ago, straight into the table as the app would have written it then. */
async function oldEvent(t: TestApp, ageDays: number, event = 'login'): Promise<string> {
  const [row] = await t.dataSource.query(
    `INSERT INTO audit_logs (event, provider_name, ip_address, details, created_at)
     VALUES ($1, 'local', '203.0.113.7', $2::jsonb, now() - make_interval(secs => $3)) RETURNING id`,
    [event, JSON.stringify({ age_days: ageDays }), ageDays * 86_400],
  );
  return row.id as string;
}

const present = async (t: TestApp, ids: string[]): Promise<string[]> =>
  ((await t.dataSource.query(`SELECT id FROM audit_logs WHERE id = ANY($1::uuid[])`, [ids])) as { id: string }[]).map((r) => r.id).sort();

/** Enqueues the retention job on the app's real queue and waits for a worker to finish it. */
async function runJob(t: TestApp): Promise<RetentionReport> {
  const queue = t.app.get<Queue>(getQueueToken(AUDIT_QUEUE));
  const job = await queue.add(RETENTION_JOB, {});
  const deadline = Date.now() + 30_000;
  let state = await job.getState();
  while (state !== 'completed' && state !== 'failed' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = await job.getState();
  }
  const finished = await queue.getJob(job.id!);
  if (state !== 'completed') throw new Error(`retention job ended ${state}: ${finished?.failedReason}`);
  return finished!.returnvalue as RetentionReport;
}

interface ArchivedEvent {
  id: string;
  event: string;
  created_at: string;
  provider_name: string | null;
  ip_address: string | null;
  details: Record<string, unknown>;
}

async function archiveContents(dir: string): Promise<{ files: string[]; events: ArchivedEvent[] }> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.ndjson.gz')).sort();
  const events: ArchivedEvent[] = [];
  for (const file of files) {
    const text = gunzipSync(await readFile(join(dir, file))).toString('utf8');
    expect(text.endsWith('\n')).toBe(true);
    events.push(...text.trimEnd().split('\n').map((line) => JSON.parse(line) as ArchivedEvent));
  }
  return { files, events };
}

describe('audit log retention tiers: the daily job on the real database and queue', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-audit-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  describe('standard: 90 days in the database, no archive', () => {
    let t: TestApp;
    const archiveDir = () => join(dir, 'standard');
    beforeAll(async () => {
      t = await startFreshTestApp({ AUDIT_RETENTION_TIER: 'standard', AUDIT_ARCHIVE_DIR: archiveDir() });
    });
    afterAll(() => t?.close());

    it('deletes rows older than 90 days, keeps newer ones, writes no archive, and audits the run', async () => {
      const expired = [await oldEvent(t, 400), await oldEvent(t, 91)];
      const kept = [await oldEvent(t, 89), await oldEvent(t, 1), await oldEvent(t, 0)];
      const report = await runJob(t);
      expect(report).toMatchObject({ tier: 'standard', archive: null, purged_rows: 2 });
      expect(await present(t, [...expired, ...kept])).toEqual([...kept].sort());
      expect(existsSync(archiveDir())).toBe(false);
      const [audit] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'audit_retention' ORDER BY created_at DESC LIMIT 1`);
      expect(audit).toMatchObject({ actor: 'system', details: { tier: 'standard', purged_rows: 2, archived_rows: 0 } });
    });
  });

  describe('extended: a year in the database plus a year of archive', () => {
    let t: TestApp;
    const archiveDir = () => join(dir, 'extended');
    beforeAll(async () => {
      t = await startFreshTestApp({ AUDIT_RETENTION_TIER: 'extended', AUDIT_ARCHIVE_DIR: archiveDir() });
    });
    afterAll(() => t?.close());

    it('archives settled rows of the last year (gzip NDJSON with a SHA-256 manifest), purges rows past a year', async () => {
      const tooOld = await oldEvent(t, 400);
      const archived = [await oldEvent(t, 200, 'link'), await oldEvent(t, 30, 'login_failed'), await oldEvent(t, 2)];
      const today = await oldEvent(t, 0); // not settled: left for tomorrow's run
      const report = await runJob(t);
      expect(report.tier).toBe('extended');
      expect(report.purged_rows).toBe(1);
      expect(report.archive?.archived_rows).toBe(3);
      // Rows move only out of the database once a year has passed; the archive is the tamper-evident copy meanwhile.
      expect(await present(t, [tooOld, ...archived, today])).toEqual([...archived, today].sort());

      const { files, events } = await archiveContents(archiveDir());
      expect(files).toEqual(report.archive!.written.map((f) => f.file));
      expect(events.map((e) => e.id).sort()).toEqual([...archived].sort());
      const [row] = await t.dataSource.query(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created FROM audit_logs WHERE id = $1`,
        [archived[0]],
      );
      expect(events.find((e) => e.id === archived[0])).toEqual({
        id: archived[0],
        event: 'link',
        actor: 'user',
        created_at: row.created,
        user_id: null,
        family_id: null,
        provider_id: null,
        provider_name: 'local',
        ip_address: '203.0.113.7',
        user_agent: null,
        details: { age_days: 200 },
      });
      for (const file of files) {
        const manifest = JSON.parse(await readFile(join(archiveDir(), `${file}.manifest.json`), 'utf8'));
        expect(manifest.sha256).toBe(createHash('sha256').update(await readFile(join(archiveDir(), file))).digest('hex'));
        expect(manifest.file).toBe(file);
      }
      expect((await readdir(archiveDir())).filter((n) => n.endsWith('.tmp') || n.startsWith('.retention.lock'))).toEqual([]);
    });

    it('reads a period in keyset batches without skipping or repeating rows that share a timestamp', async () => {
      const [{ at }] = await t.dataSource.query(`SELECT now() - interval '50 days' AS at`);
      const tied: string[] = [];
      for (let i = 0; i < 5; i++) {
        const [row] = await t.dataSource.query(`INSERT INTO audit_logs (event, details, created_at) VALUES ('logout', '{}', $1) RETURNING id`, [at]);
        tied.push(row.id);
      }
      const from = new Date(new Date(at).getTime() - DAY);
      const lines: string[] = [];
      for await (const line of t.app.get(AuditRetentionRepository).eventLines({ from, to: new Date(from.getTime() + 2 * DAY) }, 2)) lines.push(line);
      expect(lines.map((line) => JSON.parse(line).id).sort()).toEqual([...tied].sort());
      await t.dataSource.query(`DELETE FROM audit_logs WHERE id = ANY($1::uuid[])`, [tied]);
    });

    it('a second run archives nothing twice', async () => {
      const before = await archiveContents(archiveDir());
      const report = await runJob(t);
      expect(report.archive?.written).toEqual([]);
      expect(report.purged_rows).toBe(0);
      expect(await archiveContents(archiveDir())).toEqual(before);
    });
  });

  describe('compliance: seven years in the archive', () => {
    let t: TestApp;
    let config: AppConfig;
    const archiveDir = () => join(dir, 'compliance');
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      t = await startFreshTestApp({ AUDIT_RETENTION_TIER: 'compliance', AUDIT_ARCHIVE_DIR: archiveDir() });
      config = t.app.get<AppConfig>(APP_CONFIG);
    });
    afterAll(() => t?.close());

    it('moves rows past a year into the archive and deletes them from the database; rows past seven years are only purged', async () => {
      ids.eightYears = await oldEvent(t, 8 * 366);
      ids.twoYears = await oldEvent(t, 2 * 365, 'user_removed');
      ids.twoYearsToo = await oldEvent(t, 2 * 365 + 40, 'role_changed');
      ids.recent = await oldEvent(t, 100);
      const report = await runJob(t);
      expect(report.purged_rows).toBe(3);
      expect(await present(t, Object.values(ids))).toEqual([ids.recent]);
      const { files, events } = await archiveContents(archiveDir());
      expect(events.map((e) => e.id).sort()).toEqual([ids.twoYears, ids.twoYearsToo, ids.recent].sort());
      expect(events.find((e) => e.id === ids.twoYears)).toMatchObject({ event: 'user_removed', details: { age_days: 730 } });
      // One file per month of backlog, named by the period it holds.
      expect(files).toHaveLength(3);
      expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, () => undefined)).toBe(0);
    });

    it('the operator command runs the same use case and prints what it did', async () => {
      const fresh = await oldEvent(t, 3);
      const out: string[] = [];
      const report = await retentionTask(CommandDatabase.on(t.dataSource), config, (line) => out.push(line));
      expect(report.archive?.archived_rows).toBe(1);
      expect(out[0]).toBe('Tier: compliance');
      expect(out.join('\n')).toMatch(/Database: deleted 0 audit rows created before \d{4}-/);
      expect(out.join('\n')).toContain(`wrote ${report.archive!.written[0].file} (1 rows, sha256 ${report.archive!.written[0].sha256})`);
      expect((await archiveContents(archiveDir())).events.map((e) => e.id)).toContain(fresh);
      const [audit] = await t.dataSource.query(`SELECT actor FROM audit_logs WHERE event = 'audit_retention' ORDER BY created_at DESC LIMIT 1`);
      expect(audit.actor).toBe('cli');
    });

    it('detects a tampered archive: edited bytes, a re-checksummed edit, a missing file', async () => {
      const printed: string[] = [];
      const files = (await readdir(archiveDir())).filter((n) => n.endsWith('.ndjson.gz')).sort();
      const [first, second, third] = files.map((f) => join(archiveDir(), f));
      const original = await readFile(first);

      // 1. An event deleted from a file: the SHA-256 no longer matches.
      const lines = gunzipSync(original).toString().trimEnd().split('\n');
      await writeFile(first, gzipSync(`${lines.slice(1).join('\n')}\n`.replace(/^\n$/, '')));
      expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, (line) => printed.push(line))).toBe(1);
      expect(printed.join('\n')).toContain('SHA-256 does not match the manifest');

      // 2. The same edit with the manifest's checksum and row count rewritten: the keyed signature gives it away.
      const manifestPath = `${first}.manifest.json`;
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
      const edited = await readFile(first);
      await writeFile(manifestPath, JSON.stringify({ ...manifest, rows: manifest.rows - 1, sha256: createHash('sha256').update(edited).digest('hex') }));
      printed.length = 0;
      expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, (line) => printed.push(line))).toBe(1);
      expect(printed.join('\n')).toContain('manifest signature does not match');

      // 3. Restored, but another file removed: its manifest is left to say so.
      await writeFile(first, original);
      await writeFile(manifestPath, JSON.stringify(manifest));
      await unlink(second);
      printed.length = 0;
      expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, (line) => printed.push(line))).toBe(1);
      expect(printed.join('\n')).toContain('archive file is missing');
      expect(printed.join('\n')).not.toContain(first.split('/').pop()!);
      expect(third).toBeDefined();
    });

    it('deletes archive files once their period is more than seven years old', async () => {
      const eightYearsLater = new Date(Date.now() + 8 * 366 * DAY);
      const report = await t.app.get(AuditRetentionService).run(eightYearsLater);
      expect(report.archive?.expired_files.length).toBeGreaterThanOrEqual(2);
      const left = (await readdir(archiveDir())).filter((n) => n.endsWith('.ndjson.gz'));
      expect(left.filter((name) => report.archive!.expired_files.includes(name))).toEqual([]);
      // Nothing it wrote in that run is older than the window, so only new files remain.
      expect(left.sort()).toEqual(report.archive!.written.map((f) => f.file).sort());
    });
  });
  describe('the chain of archive files', () => {
    let t: TestApp;
    let config: AppConfig;
    const archiveDir = () => join(dir, 'chain');
    const files = async () => (await readdir(archiveDir())).filter((n) => n.endsWith('.ndjson.gz')).sort();
    const verify = async () => {
      const printed: string[] = [];
      return { code: await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, (line) => printed.push(line)), printed };
    };
    /** Deletes a file and its manifest, runs `check`, then puts both back. */
    async function withoutPair(name: string, check: () => Promise<void>): Promise<void> {
      const saved = join(dir, 'saved');
      await mkdir(saved, { recursive: true });
      for (const f of [name, `${name}.manifest.json`]) await copyFile(join(archiveDir(), f), join(saved, f));
      for (const f of [name, `${name}.manifest.json`]) await unlink(join(archiveDir(), f));
      try {
        await check();
      } finally {
        for (const f of [name, `${name}.manifest.json`]) await copyFile(join(saved, f), join(archiveDir(), f));
      }
    }
    beforeAll(async () => {
      t = await startFreshTestApp({ AUDIT_RETENTION_TIER: 'compliance', AUDIT_ARCHIVE_DIR: archiveDir() });
      config = t.app.get<AppConfig>(APP_CONFIG);
      // One event a day, and a daily run each morning: one file per day, each naming the one before.
      const today = startOfUtcDay(new Date());
      for (let k = 6; k >= 2; k--) await eventAt(t, new Date(today.getTime() - k * DAY + 12 * 3_600_000));
      for (let k = 5; k >= 1; k--) await t.app.get(AuditRetentionService).run(new Date(today.getTime() - k * DAY + 3 * 3_600_000));
    });
    afterAll(() => t?.close());

    it('verifies an untouched archive', async () => {
      expect((await files()).length).toBeGreaterThanOrEqual(5);
      const { code, printed } = await verify();
      expect(printed.filter((line) => line.startsWith('FAIL'))).toEqual([]);
      expect(code).toBe(0);
    });

    it('names a file deleted together with its manifest from the middle of the archive', async () => {
      const names = await files();
      const [middle, next] = names.slice(-3, -1);
      await withoutPair(middle, async () => {
        const { code, printed } = await verify();
        expect(printed).toContain(`FAIL ${middle}: missing from the chain: ${next} follows it (deleted with its manifest?)`);
        expect(code).toBe(1);
      });
      expect((await verify()).code).toBe(0);
    });

    it('names the newest file deleted together with its manifest, which the database recorded', async () => {
      const newest = (await files()).at(-1)!;
      await withoutPair(newest, async () => {
        const { code, printed } = await verify();
        expect(printed.find((line) => line.startsWith(`FAIL ${newest}: `))).toMatch(/missing: the retention run at \S+ recorded it as the newest archive file/);
        expect(code).toBe(1);
      });
    });

    it('does not count files expired by the archive window as a gap', async () => {
      const oldest = (await files())[0];
      const eightYearsOn = new Date(Date.now() + 8 * 366 * DAY);
      await withoutPair(oldest, async () => {
        expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, () => undefined, eightYearsOn)).toBe(0);
        expect((await verify()).printed.filter((line) => line.startsWith('FAIL'))).toHaveLength(1);
      });
    });
  });

  describe('an archive written before the chain', () => {
    let t: TestApp;
    let config: AppConfig;
    const archiveDir = () => join(dir, 'unchained');
    beforeAll(async () => {
      t = await startFreshTestApp({ AUDIT_RETENTION_TIER: 'compliance', AUDIT_ARCHIVE_DIR: archiveDir() });
      config = t.app.get<AppConfig>(APP_CONFIG);
    });
    afterAll(() => t?.close());

    it('still verifies, and the first new file continues from its newest file', async () => {
      const today = startOfUtcDay(new Date());
      const day = (k: number) => new Date(today.getTime() - k * DAY);
      for (let k = 9; k >= 7; k--) await writeUnchainedPair(config, archiveDir(), { from: day(k), to: day(k - 1) });
      expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, () => undefined)).toBe(0);

      await eventAt(t, new Date(day(3).getTime() + 3_600_000));
      const report = await t.app.get(AuditRetentionService).run();
      const [written] = report.archive!.written;
      const manifest = JSON.parse(await readFile(join(archiveDir(), `${written.file}.manifest.json`), 'utf8'));
      expect(manifest.previous).toEqual({ file: archiveFileName({ from: day(7), to: day(6) }), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const printed: string[] = [];
      expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, (line) => printed.push(line))).toBe(0);
      expect(printed.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    });
  });
  describe('archive files the service did not write', () => {
    let t: TestApp;
    let config: AppConfig;
    const archiveDir = () => join(dir, 'foreign');
    beforeAll(async () => {
      t = await startFreshTestApp({ AUDIT_RETENTION_TIER: 'compliance', AUDIT_ARCHIVE_DIR: archiveDir() });
      config = t.app.get<AppConfig>(APP_CONFIG);
    });
    afterAll(() => t?.close());

    it('neither move where archiving continues nor stop verification: rows past the database window are archived before they go', async () => {
      const later = (days: number) => new Date(Date.now() + days * DAY);
      // A stray pair whose manifest is not signed with this instance's key, and one whose manifest is JSON but no object.
      const period = { from: later(365), to: later(395) };
      const unsigned = archiveFileName(period);
      const broken = archiveFileName({ from: later(400), to: later(430) });
      await mkdir(archiveDir(), { recursive: true });
      for (const name of [unsigned, broken]) await writeFile(join(archiveDir(), name), gzipSync('{"id":"forged"}\n'));
      const manifest = { file: unsigned, rows: 1, from: period.from.toISOString(), to: period.to.toISOString(), sha256: 'f'.repeat(64), hmac_sha256: 'f'.repeat(64) };
      await writeFile(join(archiveDir(), `${unsigned}.manifest.json`), JSON.stringify(manifest));
      await writeFile(join(archiveDir(), `${broken}.manifest.json`), 'null');

      const old = await oldEvent(t, 400);
      const report = await t.app.get(AuditRetentionService).run();
      expect(report.archive?.archived_rows).toBe(1);
      expect(await present(t, [old])).toEqual([]);
      expect((await archiveContents(archiveDir())).events.map((e) => e.id)).toContain(old);

      const printed: string[] = [];
      expect(await verifyArchiveTask(CommandDatabase.on(t.dataSource), config, (line) => printed.push(line))).toBe(1);
      expect(printed).toContain(`FAIL ${unsigned}: manifest signature does not match (edited, or SECRET_KEY_BASE changed)`);
      expect(printed).toContain(`FAIL ${broken}: manifest is not a JSON object`);
      expect(printed.at(-1)).toBe('3 files, 1 rows verified; 2 problems');
    });
  });
});
