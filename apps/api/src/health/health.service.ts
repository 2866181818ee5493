import { Injectable } from '@nestjs/common';
import { HealthRepository } from './health.repository';

/** What the health endpoint asks of the database. */
@Injectable()
export class HealthService {
  constructor(private readonly health: HealthRepository) {}

  /** Resolves when the database answers; rejects (or hangs, for the caller's timeout) when it does not. */
  pingDatabase(): Promise<void> {
    return this.health.ping();
  }
}
