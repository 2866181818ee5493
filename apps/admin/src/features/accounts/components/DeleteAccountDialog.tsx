import { useEffect, useRef, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { QueryState } from '../../../components/QueryState';
import { useAccountDeletion, useDeleteAccount, type Account, type AccountDeletion } from '../api/useAccounts';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** What the delete takes with it, in words, as the API counts it. */
function consequences(counts: AccountDeletion): string[] {
  const said = [
    `${plural(counts.transactions, 'transaction', 'transactions')}, ${plural(counts.valuations, 'balance entry', 'balance entries')} and ${plural(counts.trades, 'trade', 'trades')} are deleted with it; budgets and reports no longer count them.`,
  ];
  if (counts.transfers) said.push(`${plural(counts.transfers, 'transfer', 'transfers')} with other accounts: their side stays there as an ordinary transaction.`);
  if (counts.imports) said.push(`${plural(counts.imports, 'import', 'imports')} into it stay listed, without what they wrote here.`);
  return said;
}

/** Deletes an account after saying what goes with it; closing is offered as the way to keep its history. */
export function DeleteAccountDialog({ account, onClose, onDone }: { account: Account; onClose: () => void; onDone: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const deletion = useAccountDeletion(account.id);
  const remove = useDeleteAccount();

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(account.id, { onSuccess: () => [dialog.current?.close(), onDone()] });
  };

  return (
    <dialog ref={dialog} aria-labelledby="delete-account-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="delete-account-title">Delete “{account.name}”?</h2>
        <QueryState query={deletion} loading="Counting what goes with it…">
          {(counts) => (
            <ul id="delete-consequences" className="consequences">
              {consequences(counts).map((line) => (
                <li key={line}>{line}</li>
              ))}
              <li>This cannot be undone. To keep its history instead, close the account.</li>
            </ul>
          )}
        </QueryState>
        <div className="status-slot">{remove.isError && <ErrorState error={remove.error} />}</div>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={remove.isPending || !deletion.data} aria-describedby="delete-consequences">
            {remove.isPending ? 'Deleting…' : 'Delete account'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
