import { createLogger } from '../common/logger';
import { RateLimitStorage } from './rate-limit';

describe('rate-limit storage', () => {
  it('counts in memory without Redis and blocks past the limit', async () => {
    const storage = new RateLimitStorage(null, createLogger('silent'));
    await storage.onModuleInit();
    try {
      const hits = [];
      for (let i = 0; i < 3; i++) hits.push(await storage.increment('k', 60_000, 2, 60_000, 'login'));
      expect(hits.map((h) => h.isBlocked)).toEqual([false, false, true]);
      expect(hits[2].timeToBlockExpire).toBeGreaterThan(0);
    } finally {
      storage.onModuleDestroy();
    }
  });

  it('fails open to memory counters, quickly, when Redis cannot be reached', async () => {
    const storage = new RateLimitStorage('redis://127.0.0.1:1/0', createLogger('silent'));
    const started = Date.now();
    await storage.onModuleInit();
    try {
      const first = await storage.increment('k', 60_000, 1, 60_000, 'admin');
      const second = await storage.increment('k', 60_000, 1, 60_000, 'admin');
      expect([first.isBlocked, second.isBlocked]).toEqual([false, true]);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      storage.onModuleDestroy();
    }
  });
});
