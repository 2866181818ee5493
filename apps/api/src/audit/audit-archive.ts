import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { AppConfig } from '../config/config';
import { derivedKey } from '../common/derived-key';
import { archiveFileName, parseArchiveFileName, Period } from './audit-retention.policy';

/** An archive file as another manifest or the database names it. */
export interface ArchiveLink {
  file: string;
  sha256: string;
}

/** What the manifest beside each archive file records; `hmac_sha256` needs the instance's key to forge. */
export interface ArchiveManifest {
  file: string;
  rows: number;
  from: string;
  to: string;
  sha256: string;
  /**
   * The file written just before this one, so a pair deleted from the middle leaves a gap verification names; null
   * for the first file of an archive. Absent from manifests written before the chain existed, which link nothing.
   */
  previous?: ArchiveLink | null;
  hmac_sha256: string;
  written_at: string;
}

/** What verification compares the archive with besides its own manifests. */
export interface VerifyOptions {
  /** A missing predecessor whose period ended at or before this was deleted by the archive window, not a gap. */
  expiredBefore: Date;
  /** The newest file the database says a retention run wrote: a newest pair deleted leaves no gap in the chain. */
  newest: (ArchiveLink & { recorded_at: string }) | null;
}

export interface ArchiveFile {
  name: string;
  period: Period;
}

export interface ArchiveProblem {
  file: string;
  problem: string;
}

export interface ArchiveVerification {
  ok: boolean;
  files: number;
  rows: number;
  problems: ArchiveProblem[];
}

const MANIFEST_SUFFIX = '.manifest.json';
const LOCK_FILE = '.retention.lock';
/** A lock older than this belongs to a process that died mid-run. */
const STALE_LOCK_MS = 6 * 60 * 60_000;

export class ArchiveBusyError extends Error {}

// A manifest from before the chain has no `previous` and is signed without it, so it still verifies.
const manifestText = (m: Omit<ArchiveManifest, 'hmac_sha256' | 'written_at'>) =>
  [m.file, m.rows, m.from, m.to, m.sha256, ...(m.previous === undefined ? [] : [m.previous?.file ?? '', m.previous?.sha256 ?? ''])].join('\n');

const isLink = (value: unknown): value is ArchiveLink =>
  typeof value === 'object' && value !== null && typeof (value as ArchiveLink).file === 'string' && typeof (value as ArchiveLink).sha256 === 'string';

/**
 * The audit archive: gzip NDJSON files, one per period, each with a manifest holding its SHA-256 (so `sha256sum` can
 * check it by hand) and an HMAC keyed from SECRET_KEY_BASE (so whoever can write the directory cannot re-checksum an
 * edited file). Files are written to a temporary name, synced and renamed, so a file that exists is complete.
 */
export class AuditArchive {
  private readonly key: Buffer;

  constructor(
    readonly directory: string,
    secretKeyBase: string,
  ) {
    this.key = derivedKey(secretKeyBase, 'audit-archive-v1');
  }

  static fromConfig(config: AppConfig): AuditArchive {
    return new AuditArchive(config.audit.archiveDir, config.secretKeyBase);
  }

  /** Runs `work` holding the archive's lock file, so a CLI run and a scheduled run never write at once. */
  async withLock<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(this.directory, { recursive: true });
    const lock = join(this.directory, LOCK_FILE);
    try {
      await writeFile(lock, `${process.pid} ${new Date().toISOString()}\n`, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (await stat(lock)).mtimeMs;
      if (age < STALE_LOCK_MS) throw new ArchiveBusyError(`another retention run holds ${lock}`);
      await rm(lock, { force: true });
      await writeFile(lock, `${process.pid} ${new Date().toISOString()}\n`, { flag: 'wx' });
    }
    try {
      return await work();
    } finally {
      await rm(lock, { force: true });
    }
  }

  /** Complete archive files (file and manifest both present), oldest first. */
  async list(): Promise<ArchiveFile[]> {
    const names = await this.names();
    const present = new Set(names);
    return names
      .map((name) => ({ name, period: parseArchiveFileName(name) }))
      .filter((f): f is ArchiveFile => f.period !== null && present.has(f.name + MANIFEST_SUFFIX))
      .sort((a, b) => a.period.from.getTime() - b.period.from.getTime());
  }

  /**
   * The end of the newest complete file this instance signed: where the next run continues. A stray or forged file
   * is not trusted to say so: one dated ahead would stop archiving while the purge went on deleting.
   */
  async archivedThrough(): Promise<Date | null> {
    const newest = await this.newestSigned();
    return newest ? new Date(newest.to) : null;
  }

  /** The manifest of the newest complete file this instance signed: the next file's predecessor. */
  private async newestSigned(): Promise<ArchiveManifest | null> {
    const newestFirst = (await this.list()).sort((a, b) => b.period.to.getTime() - a.period.to.getTime());
    for (const file of newestFirst) {
      const manifest = await this.signedManifest(file.name);
      if (typeof manifest !== 'string') return manifest;
    }
    return null;
  }

  /** Leftovers of an interrupted write; never a finished file. */
  async removeTemporaryFiles(): Promise<void> {
    for (const name of await this.names()) if (name.endsWith('.tmp')) await rm(join(this.directory, name), { force: true });
  }

  /** Writes one period's lines (NDJSON, one event each) and its manifest, linked to the newest file; returns the manifest. */
  async write(period: Period, lines: AsyncIterable<string>): Promise<ArchiveManifest> {
    const name = archiveFileName(period);
    const newest = await this.newestSigned();
    const previous = newest ? { file: newest.file, sha256: newest.sha256 } : null;
    const path = join(this.directory, name);
    const hash = createHash('sha256');
    let rows = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const line of lines) {
          rows++;
          yield `${line}\n`;
        }
      })(),
    );
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(counted, createGzip(), hashing, createWriteStream(`${path}.tmp`));
    await syncFile(`${path}.tmp`);
    const body = { file: name, rows, from: period.from.toISOString(), to: period.to.toISOString(), sha256: hash.digest('hex'), previous };
    const manifest: ArchiveManifest = { ...body, hmac_sha256: this.sign(body), written_at: new Date().toISOString() };
    await rename(`${path}.tmp`, path);
    await writeFile(`${path}${MANIFEST_SUFFIX}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
    await syncFile(`${path}${MANIFEST_SUFFIX}.tmp`);
    await rename(`${path}${MANIFEST_SUFFIX}.tmp`, `${path}${MANIFEST_SUFFIX}`);
    return manifest;
  }

  /** Deletes archive files whose whole period ended at or before `before`; returns their names. */
  async deleteExpired(before: Date): Promise<string[]> {
    const expired = (await this.list()).filter((f) => f.period.to <= before);
    for (const f of expired) {
      await unlink(join(this.directory, f.name));
      await rm(join(this.directory, f.name + MANIFEST_SUFFIX), { force: true });
    }
    return expired.map((f) => f.name);
  }

  /** Reads every line of an archive file (gunzipped). */
  async *read(name: string): AsyncGenerator<string> {
    let rest = '';
    for await (const chunk of createReadStream(join(this.directory, name)).pipe(createGunzip())) {
      const text = rest + (chunk as Buffer).toString('utf8');
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      yield* lines;
    }
    if (rest) yield rest;
  }

  /**
   * Checks every file against its manifest: SHA-256 and HMAC of the bytes, row count and JSON of every line; that no
   * file lacks a manifest or the other way round; that the file each manifest names before it is there (unless the
   * archive window expired it) and unchanged; and that the newest file the database recorded is there.
   */
  async verify(options: VerifyOptions): Promise<ArchiveVerification> {
    const names = await this.names();
    const present = new Set(names);
    const problems: ArchiveProblem[] = [];
    const signed = new Map<string, ArchiveManifest>();
    let files = 0;
    let rows = 0;
    for (const name of names) {
      if (name.endsWith(MANIFEST_SUFFIX)) {
        const file = name.slice(0, -MANIFEST_SUFFIX.length);
        if (!present.has(file)) problems.push({ file, problem: 'archive file is missing (its manifest exists)' });
        continue;
      }
      if (!parseArchiveFileName(name)) continue;
      files++;
      if (!present.has(name + MANIFEST_SUFFIX)) {
        problems.push({ file: name, problem: 'manifest is missing' });
        continue;
      }
      const checked = await this.check(name);
      if (typeof checked === 'string') problems.push({ file: name, problem: checked });
      else {
        rows += checked.rows;
        signed.set(name, checked);
      }
    }
    const expired = (file: string) => {
      const period = parseArchiveFileName(file);
      return period !== null && period.to <= options.expiredBefore;
    };
    // A file or manifest of the pair left behind is reported above; only a pair gone together needs the chain.
    const gone = (file: string) => !present.has(file) && !present.has(file + MANIFEST_SUFFIX);
    for (const [name, manifest] of signed) {
      const previous = manifest.previous;
      if (!previous) continue;
      if (gone(previous.file)) {
        if (!expired(previous.file)) problems.push({ file: previous.file, problem: `missing from the chain: ${name} follows it (deleted with its manifest?)` });
      } else if (signed.has(previous.file) && signed.get(previous.file)!.sha256 !== previous.sha256) {
        problems.push({ file: previous.file, problem: `SHA-256 is not the one ${name} records for the file before it: replaced` });
      }
    }
    const newest = options.newest;
    if (newest && !expired(newest.file)) {
      const run = `the retention run at ${newest.recorded_at}`;
      if (gone(newest.file)) problems.push({ file: newest.file, problem: `missing: ${run} recorded it as the newest archive file` });
      else if (signed.has(newest.file) && signed.get(newest.file)!.sha256 !== newest.sha256) {
        problems.push({ file: newest.file, problem: `SHA-256 is not the one ${run} recorded: replaced` });
      }
    }
    return { ok: problems.length === 0, files, rows, problems };
  }

  /** The manifest when the file matches it, else what is wrong. */
  private async check(name: string): Promise<ArchiveManifest | string> {
    const manifest = await this.signedManifest(name);
    if (typeof manifest === 'string') return manifest;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(join(this.directory, name))) hash.update(chunk as Buffer);
    if (hash.digest('hex') !== manifest.sha256) return 'SHA-256 does not match the manifest: the file was changed';
    let count = 0;
    try {
      for await (const line of this.read(name)) {
        const event = JSON.parse(line) as { id?: unknown };
        if (typeof event.id !== 'string') return `line ${count + 1} is not an audit event`;
        count++;
      }
    } catch {
      return 'file is not readable gzip NDJSON';
    }
    return count === manifest.rows ? manifest : `holds ${count} rows, the manifest says ${manifest.rows}`;
  }

  /** The manifest of a file when this instance signed it for that file, else what is wrong with it. */
  private async signedManifest(name: string): Promise<ArchiveManifest | string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(join(this.directory, name + MANIFEST_SUFFIX), 'utf8'));
    } catch {
      return 'manifest is not valid JSON';
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'manifest is not a JSON object';
    const manifest = parsed as ArchiveManifest;
    const period = parseArchiveFileName(name)!;
    if (manifest.file !== name || manifest.from !== period.from.toISOString() || manifest.to !== period.to.toISOString()) {
      return 'manifest describes another file';
    }
    if (manifest.previous !== undefined && manifest.previous !== null && !isLink(manifest.previous)) return 'manifest names its predecessor in another form';
    const { hmac_sha256: _hmac, written_at: _written, ...body } = manifest;
    if (!sameHex(manifest.hmac_sha256, this.sign(body))) return 'manifest signature does not match (edited, or SECRET_KEY_BASE changed)';
    return manifest;
  }

  private sign(body: Omit<ArchiveManifest, 'hmac_sha256' | 'written_at'>): string {
    return createHmac('sha256', this.key).update(manifestText(body)).digest('hex');
  }

  private async names(): Promise<string[]> {
    try {
      return (await readdir(this.directory)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}

/** Flushed to disk before the rename that makes it visible: after a crash a visible file is a whole file. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function sameHex(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
