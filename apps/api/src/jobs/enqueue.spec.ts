import { ENQUEUE_DEADLINE_MS, ENQUEUE_MIN_WAIT_MS, enqueueWaitMs } from './enqueue';

describe('enqueueWaitMs: the queue wait counts from the request arrival', () => {
  it('gives the queue what is left of 2.5 s since the request arrived', () => {
    expect(enqueueWaitMs(1_000, 1_000)).toBe(ENQUEUE_DEADLINE_MS);
    expect(enqueueWaitMs(1_000, 2_200)).toBe(1_300);
  });

  it('gives it at least 0.5 s when the request took longer before queueing (a large upload)', () => {
    expect(enqueueWaitMs(1_000, 3_100)).toBe(ENQUEUE_MIN_WAIT_MS);
    expect(enqueueWaitMs(1_000, 60_000)).toBe(ENQUEUE_MIN_WAIT_MS);
  });

  it('gives the whole 2.5 s outside a request', () => {
    expect(enqueueWaitMs(undefined, 123_456)).toBe(ENQUEUE_DEADLINE_MS);
  });
});
