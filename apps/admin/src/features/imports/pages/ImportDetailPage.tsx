import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { ApiError, errorMessage } from '../../../lib/api/client';
import { formatDateTime } from '../../../lib/format';
import {
  isBusy,
  isPublishUnderWay,
  isUnpublished,
  useDiscardImport,
  useImport,
  usePublishImport,
  useRevertImport,
  useUpdateImport,
  type ImportConfiguration,
  type ImportDetail,
} from '../api/useImports';
import { AccountField, takesAccount } from '../components/AccountField';
import { accountLabel, importSource, rowDates } from '../components/importLabels';
import { ConfigurationFields } from '../components/ConfigurationFields';
import { dateFormatChoices, DateFormatQuestion, type DateFormatChoices } from '../components/DateFormatQuestion';
import { hasFixedFormat, typeLabel } from '../components/importFormats';
import { ImportRowsTable, ONLY_ERRORS } from '../components/ImportRowsTable';
import { ImportStatusBadge } from '../components/ImportStatusBadge';

const configOf = (detail: ImportDetail): ImportConfiguration =>
  Object.fromEntries(Object.entries(detail.configuration).filter(([, v]) => v !== null)) as ImportConfiguration;

function ConfigureForm({ detail }: { detail: ImportDetail }) {
  const update = useUpdateImport(detail.id);
  const [config, setConfig] = useState<ImportConfiguration>(() => configOf(detail));
  const [accountId, setAccountId] = useState(detail.account_id ?? '');
  const fixed = hasFixedFormat(detail.type);
  // An emptied date format is told from the dates again: when they fit two formats, the user is asked which.
  const [asked, setAsked] = useState<DateFormatChoices | null>(null);
  const send = (settings: ImportConfiguration) => {
    // A field the user emptied goes as null, which clears it: left out, the API would keep its old value.
    const cleared = Object.keys(configOf(detail)).filter((key) => !settings[key as keyof ImportConfiguration]);
    const account = takesAccount(detail.type) ? { account_id: accountId || null } : {};
    const body = fixed ? account : { ...settings, ...Object.fromEntries(cleared.map((key) => [key, null])), ...account };
    update.mutate(body, { onSuccess: () => setAsked(null), onError: (error) => setAsked(dateFormatChoices(error)) });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(config);
  };
  const answer = (date_format: string) => {
    setConfig({ ...config, date_format });
    send({ ...config, date_format });
  };
  return (
    <section className="card" aria-labelledby="configure-title">
      <h2 id="configure-title">Configuration</h2>
      <form onSubmit={submit}>
        {takesAccount(detail.type) && <AccountField type={detail.type} value={accountId} onChange={setAccountId} />}
        {!fixed && <ConfigurationFields type={detail.type} headers={null} value={config} onChange={setConfig} />}
        <div className="status-slot" aria-live="polite">
          {asked ? (
            <DateFormatQuestion
              key={[asked.sample, ...asked.formats].join()}
              choices={asked}
              pending={update.isPending}
              onChoose={answer}
              action="Save"
              kept="the import stays as it was until you do"
            />
          ) : (
            update.isError && <ErrorState error={update.error} />
          )}
          {update.isSuccess && <p role="status">Configuration saved; rows re-checked.</p>}
        </div>
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save configuration'}
        </button>
      </form>
    </section>
  );
}

/** One import: status, counts, publish (with progress) and revert, configuration, rows and their errors. */
export function ImportDetailPage() {
  const { id = '' } = useParams();
  const detail = useImport(id);
  const publish = usePublishImport(id);
  const revert = useRevertImport(id);
  const discard = useDiscardImport(id);
  const navigate = useNavigate();
  // One publish request at a time: a double click's second click comes before the pending state shows on the button.
  const publishing = useRef(false);
  const startPublish = () => {
    if (publishing.current) return;
    publishing.current = true;
    publish.mutate(undefined, { onSettled: () => void (publishing.current = false) });
  };
  // Publish and Revert turn disabled under the user: after the answer to the latest, focus goes to the status below.
  const latest = publish.submittedAt > revert.submittedAt ? publish : revert;
  const outcome = useFocusAfter<HTMLDivElement>(latest.data ?? latest.error);
  const reasonId = `${id}-not-publishable`;

  if (detail.isPending) return <Loading label="Loading import…" />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  const d = detail.data;
  const busy = isBusy(d.status);
  const { stats } = d;
  const readback = d.verification?.readback;
  // Published already shows as such; a publish under way shows its progress.
  const reason = !busy && d.status !== 'complete' ? d.not_publishable_reason : null;
  const publishError = publish.error && !isPublishUnderWay(publish.error) ? publish.error : null;
  // Another click or tab got there first: said as what the import is doing (until it is done), not as a failure.
  const underWay = latest === publish && isPublishUnderWay(publish.error) && (d.status === 'importing' || (publish.error as ApiError).code === 'import_published');
  const discardThis = () => {
    if (!window.confirm(`Discard this import (${importSource(d)}, ${stats.rows_count} rows)? Its rows are deleted; nothing of it is published.`)) return;
    discard.mutate(undefined, { onSuccess: () => void navigate('/imports', { state: { discarded: importSource(d) } }) });
  };

  return (
    <section className="page">
      <p>
        <Link to="/imports">← All imports</Link>
      </p>
      <h1 tabIndex={-1}>
        {typeLabel(d.type)} import <ImportStatusBadge status={d.status} />
      </h1>
      <dl className="facts">
        <div>
          <dt>File</dt>
          <dd>{importSource(d)}</dd>
        </div>
        <div>
          <dt>Account</dt>
          <dd>{accountLabel(d)}</dd>
        </div>
        <div>
          <dt>Dates</dt>
          <dd>{rowDates(d)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(d.created_at)}</dd>
        </div>
        <div>
          <dt>Rows</dt>
          <dd data-testid="rows-count">{stats.rows_count}</dd>
        </div>
        <div>
          <dt>Valid</dt>
          <dd>{stats.valid_rows_count}</dd>
        </div>
        <div>
          <dt>With errors</dt>
          <dd data-testid="invalid-count">
            {stats.invalid_rows_count > 0 ? (
              <Link
                to={{ search: ONLY_ERRORS }}
                aria-label={`With errors: ${stats.invalid_rows_count}, show only those rows`}
                // The rows are below the configuration: take the user (and the keyboard's focus) to them.
                onClick={() => document.getElementById('rows-title')?.focus()}
              >
                {stats.invalid_rows_count}
              </Link>
            ) : (
              stats.invalid_rows_count
            )}
          </dd>
        </div>
        <div>
          <dt>Unmapped values</dt>
          <dd>{stats.unassigned_mappings_count}</dd>
        </div>
      </dl>
      <div ref={outcome}>
        {/* One status region for the whole run (publishing, then published or failed): focus stays on it as it changes. */}
        <div className="status-slot" role="status">
          {busy && (
            <div className="progress">
              <progress aria-label={d.status === 'importing' ? 'Publishing' : 'Reverting'} />
              <span>{d.status === 'importing' ? 'Publishing rows…' : 'Reverting…'}</span>
            </div>
          )}
          {d.status === 'complete' && <p>Published: {stats.valid_rows_count} rows are in your accounts.</p>}
          {/* What the publish found that did not stop it: a statement's balance the account disagrees with. */}
          {d.warnings.length > 0 && (
            <div className="notice" data-testid="import-warnings">
              <p>
                <strong>{d.warnings.length === 1 ? 'Warning' : 'Warnings'}</strong>
              </p>
              <ul>
                {d.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            </div>
          )}
          {/* The API keeps no count of what a revert removed: say what the confirmation promised. */}
          {d.status === 'pending' && latest === revert && revert.isSuccess && (
            <p>Reverted: what this import created is removed, except what your other data uses or a later import holds too. You can change it and publish it again.</p>
          )}
          {d.error && <p className="error" role="alert">{d.error}</p>}
          {underWay && <p>{errorMessage(publish.error)}</p>}
          {(publishError ?? revert.error) && <ErrorState error={publishError ?? revert.error} />}
          {discard.error && <ErrorState error={discard.error} />}
        </div>
      </div>
      <div className="actions">
        <button
          type="button"
          disabled={!d.status_detail.publishable || busy || publish.isPending}
          aria-describedby={reason ? reasonId : undefined}
          onClick={startPublish}
        >
          Publish
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!d.status_detail.revertable || busy || revert.isPending}
          onClick={() => window.confirm('Revert this import? What it created is removed, except what your other data uses or a later import holds too.') && revert.mutate()}
        >
          Revert
        </button>
        {isUnpublished(d) && (
          <button type="button" className="secondary" disabled={discard.isPending} onClick={discardThis}>
            {discard.isPending ? 'Discarding…' : 'Discard'}
          </button>
        )}
      </div>
      {reason && (
        <p className="muted" id={reasonId} data-testid="not-publishable-reason">
          {reason.message}
        </p>
      )}
      {readback && (
        <section className="card" aria-labelledby="verify-title">
          <h2 id="verify-title">Verification</h2>
          <p>
            Result: <strong>{readback.status?.replaceAll('_', ' ') ?? 'not verified'}</strong>
            {readback.checked_at && ` (checked ${formatDateTime(readback.checked_at)})`}
          </p>
          {readback.mismatches && Object.keys(readback.mismatches).length > 0 && (
            <ul>
              {Object.entries(readback.mismatches).map(([k, m]) => (
                <li key={k}>
                  {k}: expected {m.expected}, found {m.actual}
                </li>
              ))}
            </ul>
          )}
          {readback.error && <p className="error">{readback.error}</p>}
        </section>
      )}
      {!d.status_detail.terminal && !busy && (!hasFixedFormat(d.type) || takesAccount(d.type)) && <ConfigureForm key={d.id} detail={d} />}
      <ImportRowsTable detail={d} />
    </section>
  );
}
