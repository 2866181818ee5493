import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Runtime } from '../runtime';
import { createDataSource } from './data-source';
import { Transactions } from './transactions';

export const RUNTIME = Symbol('RUNTIME');

@Injectable()
class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}
  async onApplicationShutdown() {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Provides the TypeORM DataSource, connected and migrated before any other provider uses it. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: RUNTIME, useValue: runtime },
        {
          provide: DataSource,
          useFactory: async () => {
            const dataSource = createDataSource(runtime.database);
            await dataSource.initialize();
            return dataSource;
          },
        },
        DataSourceCloser,
        Transactions,
      ],
      exports: [DataSource, RUNTIME, Transactions],
    };
  }
}
