import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import type { Transaction } from '../database/transactions';
import { ImportIdempotencyRepository } from './import-idempotency.repository';
import type { UploadedFile } from './import-content';

/** A key as sent: visible ASCII (no spaces or control characters), as UUIDs and random tokens are. */
const VALID_KEY = /^[\x21-\x7E]{1,255}$/;

/** An Idempotency-Key of POST /imports and what identifies the request that came with it. */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
}

/** The answer a request repeating a key gets: the first one's status and body. */
export interface ReplayedAnswer {
  status: number;
  body: unknown;
}

/**
 * The key is taken: by a first request whose import is stored (`importId`) and whose answer is `answer` once sent.
 * Thrown inside the storing transaction, which it rolls back.
 */
export class KeyTaken extends Error {
  constructor(
    readonly importId: string | null,
    readonly answer: ReplayedAnswer | null,
  ) {
    super('idempotency key taken');
  }
}

/** The Idempotency-Key header as a claim on it, or none when absent; a malformed one is a 422 naming the header. */
export function idempotencyClaim(header: string | string[] | undefined, body: object, file: UploadedFile | undefined): IdempotencyClaim | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !VALID_KEY.test(header)) {
    throw ApiError.validation(['Idempotency-Key must be 1 to 255 visible ASCII characters (letters, digits, punctuation; no spaces), sent once']);
  }
  // The body's fields in a fixed order, and the file by name and content: what makes a repeat the same request.
  const fields = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
  const upload = file && { name: file.originalname, sha256: createHash('sha256').update(file.buffer).digest('hex') };
  return { key: header, fingerprint: createHash('sha256').update(JSON.stringify({ fields, upload })).digest('hex') };
}

/** Idempotency-Key claims of POST /imports, kept in import_idempotency_keys by family. */
@Injectable()
export class ImportIdempotencyKeys {
  constructor(private readonly keys: ImportIdempotencyRepository) {}

  /**
   * Takes the key for this request, in the transaction that stores its import (or a key of the same name older than
   * 24 hours). A request holding the key in a transaction not yet committed makes this one wait, then find it taken.
   * Throws KeyTaken with the first request's import and answer; a 422 when the key came with another request.
   */
  async claim(tx: Transaction, familyId: string, claim: IdempotencyClaim): Promise<void> {
    if (await this.keys.insertOrTakeExpired(familyId, claim.key, claim.fingerprint, tx)) return;
    const first = await this.keys.find(familyId, claim.key, tx);
    if (!first) return this.claim(tx, familyId, claim); // expired and deleted in between: free again
    if (first.fingerprint !== claim.fingerprint) {
      throw new ApiError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key came with a different request in the last 24 hours; send a new key for a new import',
        { errors: ['Idempotency-Key was used for a different request body'] },
      );
    }
    throw new KeyTaken(first.importId, first.status === null ? null : { status: first.status, body: first.body });
  }

  /** Names the import the key's request stored, in the same transaction. */
  attach(tx: Transaction, familyId: string, key: string, importId: string): Promise<void> {
    return this.keys.attachImport(familyId, key, importId, tx);
  }

  /** Keys are kept 24 hours; older ones go (on the stuck-import reaper's round), across families. */
  deleteExpired(): Promise<void> {
    return this.keys.deleteExpired();
  }

  /** Keeps the answer the key's first request got, for repeats to get the same. */
  record(familyId: string, key: string, answer: ReplayedAnswer): Promise<void> {
    return this.keys.recordAnswer(familyId, key, answer);
  }
}
