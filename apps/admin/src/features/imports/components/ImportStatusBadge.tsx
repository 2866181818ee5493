const LABELS: Record<string, string> = {
  pending: 'Pending',
  importing: 'Publishing…',
  complete: 'Complete',
  reverting: 'Reverting…',
  revert_failed: 'Revert failed',
  failed: 'Failed',
};

export function ImportStatusBadge({ status }: { status: string }) {
  return <span className={`badge ${status}`}>{LABELS[status] ?? status}</span>;
}
