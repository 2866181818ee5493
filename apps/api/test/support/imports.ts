import request from 'supertest';
import type { Server } from 'node:http';

/** Polls an import until it leaves importing/reverting; returns its final detail. */
export async function waitForImport(server: Server, apiKey: string, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(server).get(`/api/v1/imports/${id}`).set('X-Api-Key', apiKey).expect(200);
    if (!['importing', 'reverting'].includes(res.body.data.status)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${res.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const createImport = (server: Server, apiKey: string, body: Record<string, unknown>) =>
  request(server).post('/api/v1/imports').set('X-Api-Key', apiKey).send(body);
