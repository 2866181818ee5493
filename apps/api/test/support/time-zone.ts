type SetProcessTimeZone = (zone: string | undefined) => string | undefined;

/** Runs `work` with the process in another time zone, then restores it; needs `@jest-environment` time-zone-environment. */
export async function withTimeZone<T>(zone: string, work: () => Promise<T> | T): Promise<T> {
  const set = (globalThis as { setProcessTimeZone?: SetProcessTimeZone }).setProcessTimeZone;
  if (!set) throw new Error('withTimeZone needs the test file to declare @jest-environment <rootDir>/apps/api/test/support/time-zone-environment.ts');
  const previous = set(zone);
  try {
    return await work();
  } finally {
    set(previous);
  }
}
