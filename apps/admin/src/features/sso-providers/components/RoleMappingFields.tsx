import { ROLES, type Role } from '@hearth/contracts';
import { Field } from '../../../components/Field';

export interface GroupRow {
  group: string;
  role: Role;
}

/** The form's view of a provider's role_mapping: its group mappings as rows, every other rule as JSON text. */
export interface RoleMappingDraft {
  rows: GroupRow[];
  /** conditions, attributeMappings and roleHierarchy, kept as stored unless the admin edits them. */
  otherRules: string;
}

const roleLabel = (role: string) => role.replace('_', ' ');

export function roleMappingDraft(stored: Record<string, unknown> | undefined): RoleMappingDraft {
  const { groupMappings, ...rest } = stored ?? {};
  const rows = Array.isArray(groupMappings)
    ? groupMappings.map((m: { group?: unknown; role?: unknown }) => ({ group: String(m?.group ?? ''), role: m?.role as Role }))
    : [];
  return { rows, otherRules: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '' };
}

/**
 * The role_mapping to send, or the problem that stops it being sent. The API replaces the whole mapping on save, so
 * the rules this form does not show as rows go back as the admin left them.
 */
export function roleMappingToSend(draft: RoleMappingDraft): { mapping: Record<string, unknown> } | { problem: string } {
  const empty = draft.rows.findIndex((row) => !row.group.trim());
  if (empty >= 0) return { problem: `Group ${empty + 1} needs a group name (or remove that row).` };
  let other: unknown = {};
  if (draft.otherRules.trim()) {
    try {
      other = JSON.parse(draft.otherRules);
    } catch (error) {
      return { problem: `Other mapping rules are not valid JSON: ${(error as Error).message}` };
    }
  }
  if (typeof other !== 'object' || other === null || Array.isArray(other)) return { problem: 'Other mapping rules must be a JSON object.' };
  if ('groupMappings' in other) return { problem: 'Other mapping rules must not contain groupMappings: use the group rows above.' };
  const groupMappings = draft.rows.map((row) => ({ group: row.group.trim(), role: row.role }));
  return { mapping: { ...other, ...(groupMappings.length ? { groupMappings } : {}) } };
}

/** Group -> role rows (add, change, remove) and the remaining rules as JSON. */
export function RoleMappingFields({ draft, onChange }: { draft: RoleMappingDraft; onChange: (draft: RoleMappingDraft) => void }) {
  const setRow = (index: number, row: Partial<GroupRow>) => onChange({ ...draft, rows: draft.rows.map((r, i) => (i === index ? { ...r, ...row } : r)) });
  return (
    <fieldset className="role-mapping">
      <legend>Role mapping</legend>
      <p className="muted">
        On each sign-in a user gets the highest role of the groups they are in (names match exactly; <code>*</code> matches everyone). When a mapping is set
        and none of it matches, the default role applies; without any mapping, roles are not changed at sign-in.
      </p>
      {draft.rows.length === 0 && <p className="empty">No group mapping.</p>}
      {draft.rows.map((row, index) => (
        <div className="inline-form" key={index}>
          <Field label={`Group ${index + 1}`}>
            <input value={row.group} onChange={(e) => setRow(index, { group: e.target.value })} />
          </Field>
          <Field label={`Role for group ${index + 1}`}>
            <select value={row.role} onChange={(e) => setRow(index, { role: e.target.value as Role })}>
              {/* A stored role Hearth does not know (e.g. from config/auth.yml) is shown, so saving does not silently change it. */}
              {!ROLES.includes(row.role) && <option value={row.role}>{String(row.role)} (unknown)</option>}
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r)}
                </option>
              ))}
            </select>
          </Field>
          <button type="button" className="secondary" aria-label={`Remove group ${index + 1}`} onClick={() => onChange({ ...draft, rows: draft.rows.filter((_, i) => i !== index) })}>
            Remove
          </button>
        </div>
      ))}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => onChange({ ...draft, rows: [...draft.rows, { group: '', role: 'member' }] })}>
          Add group mapping
        </button>
      </div>
      <Field label="Other mapping rules (JSON)" hint="conditions, attributeMappings and roleHierarchy, as in config/auth.yml; empty for none.">
        <textarea rows={4} value={draft.otherRules} onChange={(e) => onChange({ ...draft, otherRules: e.target.value })} />
      </Field>
    </fieldset>
  );
}
