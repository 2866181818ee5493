import { TestEnvironment } from 'jest-environment-node';

/**
 * Jest hands each test file a copy of process.env, so assigning TZ there never reaches Node's clock. This environment
 * runs outside that sandbox and lends the file `setProcessTimeZone`, which assigns the real TZ (Node re-reads it on
 * assignment) and returns the zone it replaced. Use with `@jest-environment` and `withTimeZone` (./time-zone).
 */
export default class TimeZoneEnvironment extends TestEnvironment {
  private readonly original = process.env.TZ;

  override async setup(): Promise<void> {
    await super.setup();
    this.global.setProcessTimeZone = (zone: string | undefined) => {
      const previous = process.env.TZ;
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
      return previous;
    };
  }

  override async teardown(): Promise<void> {
    if (this.original === undefined) delete process.env.TZ;
    else process.env.TZ = this.original;
    await super.teardown();
  }
}
