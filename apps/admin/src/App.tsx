import { useQuery } from '@tanstack/react-query';
import { getJson } from './api';

interface Health {
  status: string;
  mode: string;
  database: string;
  queue: string;
}

/** Placeholder home until the admin screens land: shows that the SPA reaches the API. */
export function App() {
  const health = useQuery({ queryKey: ['health'], queryFn: () => getJson<Health>('/api/v1/health') });
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Hearth</h1>
      <p>Household finance you run yourself.</p>
      <section aria-live="polite">
        {health.isPending && <p>Checking the service…</p>}
        {health.isError && <p role="alert">The API could not be reached.</p>}
        {health.data && (
          <p>
            Service status: <strong data-testid="health-status">{health.data.status}</strong> ({health.data.mode} mode;
            database {health.data.database}, queue {health.data.queue})
          </p>
        )}
      </section>
    </main>
  );
}
