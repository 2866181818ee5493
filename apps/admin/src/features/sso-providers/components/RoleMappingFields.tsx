import { ROLES, type Role } from '@hearth/contracts';
import { Field } from '../../../components/Field';

export interface GroupRow {
  /** Stays with the row while the form is open, so a problem stays on its row when a row above is removed. */
  key: number;
  group: string;
  role: Role;
  /** The entry's other fields as loaded: the API keeps whatever an entry holds, so they go back as they came. */
  rest: Record<string, unknown>;
}

/** The form's view of a provider's role_mapping: its group mappings as rows, every other rule as JSON text. */
export interface RoleMappingDraft {
  rows: GroupRow[];
  /** conditions, attributeMappings and roleHierarchy, kept as stored unless the admin edits them. */
  otherRules: string;
}

/** A problem with a row's group name or role, shown under that control; `text` follows the control's label. */
export interface RowProblem {
  key: number;
  field: 'group' | 'role';
  text: string;
}

const roleLabel = (role: string) => role.replace('_', ' ');
const groupLabel = (index: number) => `Group ${index + 1}`;
const roleFieldLabel = (index: number) => `Role for group ${index + 1}`;

let nextKey = 0;
const newRow = (entry: Record<string, unknown> = {}): GroupRow => {
  const { group, role, ...rest } = entry;
  return { key: nextKey++, group: typeof group === 'string' ? group : String(group ?? ''), role: (role ?? 'member') as Role, rest };
};

export function roleMappingDraft(stored: Record<string, unknown> | undefined): RoleMappingDraft {
  const { groupMappings, ...rest } = stored ?? {};
  const rows = Array.isArray(groupMappings)
    ? groupMappings.map((m: unknown) => newRow(typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : {}))
    : [];
  return { rows, otherRules: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '' };
}

/**
 * The role_mapping to send (with the row keys in the order sent, to place the API's problems), or what stops it
 * being sent. The API replaces the whole mapping on save, so the rules and entry fields this form does not show go
 * back as the admin left them; group names go as typed, since they match exactly (the API refuses only blank ones).
 */
export function roleMappingToSend(
  draft: RoleMappingDraft,
): { mapping: Record<string, unknown>; rowKeys: number[] } | { problem: string } | { rowProblems: RowProblem[] } {
  const blank = draft.rows.filter((row) => !row.group.trim());
  if (blank.length) return { rowProblems: blank.map((row) => ({ key: row.key, field: 'group', text: 'needs a group name (or remove that row).' })) };
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
  const groupMappings = draft.rows.map((row) => ({ ...row.rest, group: row.group, role: row.role }));
  return { mapping: { ...other, ...(groupMappings.length ? { groupMappings } : {}) }, rowKeys: draft.rows.map((row) => row.key) };
}

/**
 * Splits the API's validation messages into those about a group mapping it was sent (`groupMappings[0].role ...`,
 * a zero-based index into `rowKeys`) and the rest.
 */
export function rowProblemsOf(messages: readonly string[], rowKeys: readonly number[]): { rows: RowProblem[]; rest: string[] } {
  const rows: RowProblem[] = [];
  const rest: string[] = [];
  for (const message of messages) {
    const match = /^groupMappings\[(\d+)\](?:\.(group|role))?\s+(.+)$/s.exec(message);
    const key = match ? rowKeys[Number(match[1])] : undefined;
    if (match && key !== undefined) rows.push({ key, field: match[2] === 'role' ? 'role' : 'group', text: match[3] });
    else rest.push(message);
  }
  return { rows, rest };
}

/** Group -> role rows (add, change, remove) and the remaining rules as JSON. */
export function RoleMappingFields({
  draft,
  problems,
  onChange,
}: {
  draft: RoleMappingDraft;
  problems: readonly RowProblem[];
  onChange: (draft: RoleMappingDraft) => void;
}) {
  // Each problem is told with the row's label as it is now (rows above may have been removed since).
  const problemFor = (row: GroupRow, field: RowProblem['field'], label: string) =>
    problems
      .filter((p) => p.key === row.key && p.field === field)
      .map((p) => `${label} ${p.text}`)
      .join(' ') || undefined;
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
        <div className="inline-form" key={row.key} role="group" aria-label={`Group mapping ${index + 1}`}>
          <Field label={groupLabel(index)} error={problemFor(row, 'group', groupLabel(index))}>
            <input value={row.group} onChange={(e) => setRow(index, { group: e.target.value })} />
          </Field>
          <Field label={roleFieldLabel(index)} error={problemFor(row, 'role', roleFieldLabel(index))}>
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
        <button type="button" className="secondary" onClick={() => onChange({ ...draft, rows: [...draft.rows, newRow()] })}>
          Add group mapping
        </button>
      </div>
      <Field label="Other mapping rules (JSON)" hint="conditions, attributeMappings and roleHierarchy, as in config/auth.yml; empty for none.">
        <textarea rows={4} value={draft.otherRules} onChange={(e) => onChange({ ...draft, otherRules: e.target.value })} />
      </Field>
    </fieldset>
  );
}
