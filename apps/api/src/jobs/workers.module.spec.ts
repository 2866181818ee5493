import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { PROCESSOR_METADATA } from '@nestjs/bullmq/dist/bull.constants';
import { FEATURE_MODULES } from '../app.module';
import { WORKER_PROVIDERS } from './workers.module';

/** Providers declared by the modules reachable from `modules`, following imports. */
function providersOf(modules: unknown[], seen = new Set<unknown>()): unknown[] {
  const found: unknown[] = [];
  for (const entry of modules) {
    const module = (entry as { module?: unknown })?.module ?? entry;
    if (!module || seen.has(module)) continue;
    seen.add(module);
    found.push(...((Reflect.getMetadata(MODULE_METADATA.PROVIDERS, module) as unknown[] | undefined) ?? []));
    found.push(...((entry as { providers?: unknown[] }).providers ?? []));
    found.push(...providersOf((Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) as unknown[] | undefined) ?? [], seen));
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('process roles: BullMQ processors live only in WorkersModule', () => {
  it('lists every @Processor class of the source tree', () => {
    const declared = sourceFiles(join(__dirname, '..'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/@Processor\([^)]*\)\s*export class (\w+)/g)].map((m) => m[1]))
      .sort();
    const listed = WORKER_PROVIDERS.filter((p) => Reflect.getMetadata(PROCESSOR_METADATA, p) !== undefined).map((p) => p.name).sort();
    expect(declared.length).toBeGreaterThanOrEqual(3);
    expect(listed).toEqual(declared);
  });

  it('keeps processors and schedulers out of the feature modules an api process loads', () => {
    const apiProviders = providersOf(FEATURE_MODULES);
    expect(apiProviders.length).toBeGreaterThan(10);
    expect(apiProviders.filter((p) => typeof p === 'function' && Reflect.getMetadata(PROCESSOR_METADATA, p) !== undefined)).toEqual([]);
    expect(apiProviders.filter((p) => (WORKER_PROVIDERS as unknown[]).includes(p))).toEqual([]);
  });
});
