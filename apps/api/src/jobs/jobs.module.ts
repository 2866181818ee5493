import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Runtime } from '../runtime';
import { HEALTH_QUEUE } from './health.processor';
import { queueConnection } from './queue-connection';

/** The queue connection and the queues every process may enqueue to; workers are in WorkersModule. */
@Global()
@Module({})
export class JobsModule {
  static forRoot(runtime: Runtime, prefix: string): DynamicModule {
    const bull = BullModule.forRoot({ connection: queueConnection(runtime.queue) as never, prefix });
    const queues = BullModule.registerQueue({ name: HEALTH_QUEUE });
    return {
      module: JobsModule,
      imports: [bull, queues],
      exports: [queues],
    };
  }
}
