import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { useDeleteUser, type AdminUser } from '../api/useUsers';

/** A modal that deletes a user permanently once their e-mail address is typed again. */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useDeleteUser();
  const [typed, setTyped] = useState('');

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate({ id: user.id, confirmation_email: typed }, { onSuccess: onClose });
  };
  const matches = typed.trim().toLowerCase() === user.email.toLowerCase();

  return (
    <dialog ref={dialog} aria-labelledby="delete-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="delete-title">Delete {user.email}?</h2>
        <p>This permanently removes the user, their sessions and API keys, and blocks their SSO identities from signing in again. It cannot be undone.</p>
        <label htmlFor="delete-confirm">Type the user's e-mail address to confirm</label>
        <input id="delete-confirm" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <div className="status-slot">{remove.isError && <ErrorState error={remove.error} />}</div>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={!matches || remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete permanently'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
