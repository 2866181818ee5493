import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface DatabaseTarget {
  url: string;
  /** PGlite serves one session: one pooled connection, so a transaction can never interleave with another query. */
  embedded: boolean;
}

export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    // gen_random_uuid() is built into PostgreSQL 13+ and PGlite; no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: false,
    extra: target.embedded
      ? { max: 1, connectionTimeoutMillis: 30_000 }
      : { max: 10, connectionTimeoutMillis: 5_000, statement_timeout: 60_000 },
  };
}

export function createDataSource(target: DatabaseTarget): DataSource {
  return new DataSource(dataSourceOptions(target));
}
