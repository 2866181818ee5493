import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class HealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The cheapest statement that needs a pooled connection and an answering server. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
