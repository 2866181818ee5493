import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import request from 'supertest';
import { HEALTH_QUEUE } from '../src/jobs/health.processor';
import { startTestApp, TestApp } from './support/test-app';

describe('health and the job queue', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reports database and queue status without credentials', async () => {
    const res = await request(t.server).get('/api/v1/health').expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      mode: process.env.DATABASE_URL ? 'external' : 'embedded',
      database: 'ok',
      queue: 'ok',
      queue_backend: process.env.REDIS_URL ? 'redis' : 'postgres',
    });
  });

  it('answers 503 naming what is down when the database does not answer', async () => {
    const query = t.dataSource.query.bind(t.dataSource);
    const down = jest.spyOn(t.dataSource, 'query').mockImplementation((sql: string, ...rest) =>
      sql === 'SELECT 1' ? Promise.reject(new Error('connect ECONNREFUSED postgres://hearth:secret@db:5432/hearth')) : query(sql, ...rest),
    );
    try {
      const res = await request(t.server).get('/api/v1/health').expect(503);
      expect(res.body).toMatchObject({ status: 'degraded', database: 'down', queue: 'ok' });
      expect(JSON.stringify(res.body)).not.toContain('secret');
    } finally {
      down.mockRestore();
    }
    await request(t.server).get('/api/v1/health').expect(200);
  });

  it('runs a job end to end on the configured backend', async () => {
    const queue = t.app.get<Queue>(getQueueToken(HEALTH_QUEUE));
    const nonce = `n-${Date.now()}`;
    const job = await queue.add('ping', { nonce });
    const deadline = Date.now() + 20_000;
    let state = await job.getState();
    while (state !== 'completed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await job.getState();
    }
    expect(state).toBe('completed');
    const finished = await queue.getJob(job.id!);
    expect(finished?.returnvalue).toMatchObject({ nonce });
  });

  it('serves the OpenAPI document', async () => {
    const res = await request(t.server).get('/api/v1/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/api/v1/health']).toBeDefined();
    expect(res.body.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  });
});
