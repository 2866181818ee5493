import { useState, type FormEvent } from 'react';
import { ROLES, SSO_STRATEGIES, type SsoStrategy } from '@hearth/contracts';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { ApiError } from '../../../lib/api/client';
import { useCreateProvider, useUpdateProvider, type CreateProvider, type Provider, type UpdateProvider } from '../api/useProviders';
import { RoleMappingFields, roleMappingDraft, roleMappingToSend, rowProblemsOf, type RowProblem } from './RoleMappingFields';

const SEE_ROWS = 'Check the group mappings marked above.';

type Values = Record<string, string | boolean>;
interface FieldSpec {
  key: string;
  label: string;
  kind?: 'secret' | 'textarea' | 'checkbox' | 'token_auth';
  hint?: string;
}

/** Only the fields of the chosen strategy are shown and sent. */
const STRATEGY_FIELDS: Record<SsoStrategy, FieldSpec[]> = {
  openid_connect: [
    { key: 'issuer', label: 'Issuer URL', hint: 'Discovery is checked when you save: it must answer over HTTPS.' },
    { key: 'client_id', label: 'Client ID' },
    { key: 'client_secret', label: 'Client secret', kind: 'secret' },
    { key: 'scopes', label: 'Scopes', hint: 'For example: openid profile email groups' },
  ],
  oauth2: [
    { key: 'authorization_url', label: 'Authorization URL' },
    { key: 'token_url', label: 'Token URL' },
    { key: 'userinfo_url', label: 'User info URL' },
    { key: 'client_id', label: 'Client ID' },
    { key: 'client_secret', label: 'Client secret', kind: 'secret' },
    { key: 'scopes', label: 'Scopes' },
    { key: 'token_auth_method', label: 'Token endpoint authentication', kind: 'token_auth' },
  ],
  saml: [
    { key: 'sso_url', label: 'SSO URL' },
    { key: 'slo_url', label: 'Single logout URL', hint: 'Optional. Signing out of Hearth then signs out at the IdP too.' },
    { key: 'idp_entity_id', label: 'IdP entity ID' },
    { key: 'idp_certificate', label: 'IdP certificate (PEM)', kind: 'textarea' },
    { key: 'sign_requests', label: 'Sign requests', kind: 'checkbox' },
    { key: 'sp_private_key', label: 'SP private key (PEM)', kind: 'secret' },
    { key: 'sp_certificate', label: 'SP certificate (PEM)', kind: 'textarea' },
  ],
};

const STRATEGY_LABELS: Record<SsoStrategy, string> = { openid_connect: 'OpenID Connect', oauth2: 'OAuth 2.0', saml: 'SAML 2.0' };

function initialValues(provider: Provider | null): Values {
  if (!provider) return { name: '', label: '', default_role: 'member', group_attribute: 'groups', scopes: 'openid profile email', token_auth_method: 'client_secret_post', sign_requests: false };
  const values: Values = {};
  for (const [key, value] of Object.entries(provider)) if (typeof value === 'string' || typeof value === 'boolean') values[key] = value;
  return values;
}

/** Add or edit a provider; the API's refusal (e.g. a failed discovery check) is shown as is. */
export function ProviderForm({ provider, onDone }: { provider: Provider | null; onDone: () => void }) {
  const [strategy, setStrategy] = useState<SsoStrategy>((provider?.strategy as SsoStrategy | undefined) ?? 'openid_connect');
  const [values, setValues] = useState<Values>(() => initialValues(provider));
  const [roleMapping, setRoleMapping] = useState(() => roleMappingDraft(provider?.role_mapping));
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const [rowProblems, setRowProblems] = useState<RowProblem[]>([]);
  /** The rows in the order last sent: the API names a group mapping by its index in what it was sent. */
  const [sentRowKeys, setSentRowKeys] = useState<number[]>([]);
  const create = useCreateProvider();
  const update = useUpdateProvider();
  const mutation = provider ? update : create;
  const set = (key: string, value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const mapping = roleMappingToSend(roleMapping);
    setFormProblem('problem' in mapping ? mapping.problem : null);
    setRowProblems('rowProblems' in mapping ? mapping.rowProblems : []);
    if (!('mapping' in mapping)) return;
    setSentRowKeys(mapping.rowKeys);
    // An empty button label means the provider's name (the API refuses an empty one).
    const label = String(values.label ?? '').trim() || String(values.name ?? '').trim();
    const body: Record<string, unknown> = { label, default_role: values.default_role, group_attribute: values.group_attribute, role_mapping: mapping.mapping };
    for (const spec of STRATEGY_FIELDS[strategy]) {
      const value = values[spec.key];
      if (spec.kind === 'checkbox') body[spec.key] = Boolean(value);
      else if (typeof value === 'string' && value.trim() !== '') body[spec.key] = value.trim();
      // Editing, an emptied field goes as '' so the API clears it; a secret is never shown, so blank keeps the stored one.
      else if (provider && spec.kind !== 'secret') body[spec.key] = '';
    }
    if (provider) {
      const name = String(values.name ?? '').trim();
      if (name !== provider.name) body.name = name;
      update.mutate({ id: provider.id, body: body as UpdateProvider }, { onSuccess: onDone });
    } else {
      create.mutate({ ...body, name: String(values.name).trim(), strategy } as CreateProvider, { onSuccess: onDone });
    }
  };

  // The API's problems with a group mapping go on its row (while the row is still there); the others stay below.
  const refusal = mutation.error instanceof ApiError ? rowProblemsOf(mutation.error.details, sentRowKeys) : { rows: [], rest: [] };
  const refusedRows = refusal.rows.filter((p) => roleMapping.rows.some((row) => row.key === p.key));
  const checkedHere = formProblem !== null || rowProblems.length > 0;

  return (
    <section className="card" aria-labelledby="provider-form-title">
      <h2 id="provider-form-title">{provider ? `Edit ${provider.label || provider.name}` : 'Add a provider'}</h2>
      <form onSubmit={submit}>
        <div className="config-grid">
          <Field label="Strategy">
            <select value={strategy} disabled={provider !== null} onChange={(e) => setStrategy(e.target.value as SsoStrategy)}>
              {SSO_STRATEGIES.map((s) => (
                <option key={s} value={s}>
                  {STRATEGY_LABELS[s]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Name" hint="Unique; the callback path is /auth/<name>/callback.">
            <input required value={String(values.name ?? '')} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <Field label="Button label" hint="On the sign-in button; the name when left empty.">
            <input value={String(values.label ?? '')} onChange={(e) => set('label', e.target.value)} />
          </Field>
          {STRATEGY_FIELDS[strategy].map((spec) =>
            spec.kind === 'checkbox' ? (
              <div className="field checkbox" key={spec.key}>
                <label>
                  <input type="checkbox" checked={Boolean(values[spec.key])} onChange={(e) => set(spec.key, e.target.checked)} /> {spec.label}
                </label>
              </div>
            ) : (
              <Field key={spec.key} label={spec.label} hint={spec.kind === 'secret' && provider ? 'Leave empty to keep the stored value.' : spec.hint}>
                {spec.kind === 'textarea' ? (
                  <textarea rows={3} value={String(values[spec.key] ?? '')} onChange={(e) => set(spec.key, e.target.value)} />
                ) : spec.kind === 'token_auth' ? (
                  <select value={String(values[spec.key] ?? 'client_secret_post')} onChange={(e) => set(spec.key, e.target.value)}>
                    <option value="client_secret_post">client_secret_post (credentials in the body)</option>
                    <option value="client_secret_basic">client_secret_basic (Authorization header)</option>
                  </select>
                ) : (
                  <input type={spec.kind === 'secret' ? 'password' : 'text'} autoComplete="off" value={String(values[spec.key] ?? '')} onChange={(e) => set(spec.key, e.target.value)} />
                )}
              </Field>
            ),
          )}
          <Field
            label="Default role"
            hint={
              values.default_role === 'super_admin'
                ? 'Every account this provider creates, and every one no group mapping matches, becomes a super admin of this whole Hearth (all households). Choose it only for an identity provider that admits nobody but your administrators.'
                : undefined
            }
          >
            <select value={String(values.default_role)} onChange={(e) => set('default_role', e.target.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r.replace('_', ' ')}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Group attribute">
            <input value={String(values.group_attribute ?? '')} onChange={(e) => set('group_attribute', e.target.value)} />
          </Field>
        </div>
        <RoleMappingFields draft={roleMapping} problems={checkedHere ? rowProblems : refusedRows} onChange={setRoleMapping} />
        <div className="status-slot">
          {checkedHere ? (
            <div className="error" role="alert">
              <p>{formProblem ?? SEE_ROWS}</p>
            </div>
          ) : refusal.rows.length > 0 ? (
            (refusal.rest.length > 0 || refusedRows.length > 0) && (
              <div className="error" role="alert">
                <p>{[...refusal.rest, ...(refusedRows.length ? [SEE_ROWS] : [])].join(' ')}</p>
              </div>
            )
          ) : (
            mutation.isError && <ErrorState error={mutation.error} />
          )}
        </div>
        <div className="actions">
          <button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving…' : 'Save provider'}
          </button>
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
