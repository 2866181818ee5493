import { useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../lib/api/client';

/** Seconds left of a rate limit's wait (Retry-After), counting down; null for any other error. */
function useWaitLeft(error: unknown): number | null {
  const seconds = error instanceof ApiError && error.status === 429 ? error.retryAfterSeconds : null;
  const [wait, setWait] = useState<{ error: unknown; left: number } | null>(null);
  // A new refusal starts its own wait (state reset while rendering, as React allows for state derived from props).
  if (seconds !== null && wait?.error !== error) setWait({ error, left: seconds });
  const left = seconds !== null && wait && wait.error === error ? wait.left : null;
  useEffect(() => {
    if (!left) return;
    const timer = setTimeout(() => setWait((w) => (w && w.error === error ? { error, left: w.left - 1 } : w)), 1000);
    return () => clearTimeout(timer);
  }, [error, left]);
  return left;
}

/** An alert with the API's message and an optional retry button; a rate limit's wait counts down, retry after it. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const left = useWaitLeft(error);
  const message =
    left === null ? errorMessage(error) : left > 0 ? `Too many requests. Try again in ${left} ${left === 1 ? 'second' : 'seconds'}.` : 'Too many requests. You can try again now.';
  return (
    <div className="error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="secondary" disabled={!!left} onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
