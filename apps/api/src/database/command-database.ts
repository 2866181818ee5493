import type { DataSource } from 'typeorm';
import { createDataSource, DatabaseTarget } from './data-source';

/**
 * The database of one operator command (apps/api/src/cli), which runs without Nest: the command builds the
 * repositories and services it needs on it, as the application's dependency injection does, and holds no connection
 * it could query itself.
 */
export class CommandDatabase {
  private constructor(private readonly dataSource: DataSource) {}

  /** Connects to the runtime's database (already migrated by startRuntime). */
  static async open(target: DatabaseTarget): Promise<CommandDatabase> {
    const dataSource = createDataSource(target);
    await dataSource.initialize();
    return new CommandDatabase(dataSource);
  }

  /** On a connection the caller opened and closes (tests run a command's task on the test app's). */
  static on(dataSource: DataSource): CommandDatabase {
    return new CommandDatabase(dataSource);
  }

  /** A repository, or a class still built on the connection alone, on this command's connection. */
  make<T>(type: new (dataSource: DataSource) => T): T {
    return new type(this.dataSource);
  }

  close(): Promise<void> {
    return this.dataSource.destroy();
  }
}
