/** Names of detail keys worth more than their spelled-out form. */
const KEY_LABELS: Record<string, string> = {
  actor_user_id: 'By user',
  api_key_id: 'API key',
  family_created: 'New household',
  target_user_id: 'User',
  identity_id: 'Identity',
  sso_providers: 'Providers',
  sso_identity_blocks: 'Removed identities',
};

const keyLabel = (key: string) => KEY_LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');

/** A detail value as a short phrase: lists joined, nested records as "name: value", ids shortened. */
function phrase(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(value) ? value.slice(0, 8) : value;
  if (Array.isArray(value)) return value.length ? value.map(phrase).join(value.some((v) => v && typeof v === 'object') ? '; ' : ', ') : 'none';
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([key, item]) => `${keyLabel(key).toLowerCase()}: ${phrase(item)}`)
      .join(', ');
  }
  return String(value);
}

/** An audit event's details as label/value lines, not raw JSON. */
export function AuditDetails({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (!entries.length) return null;
  return (
    <dl className="audit-details">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{keyLabel(key)}</dt>
          <dd>{phrase(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
