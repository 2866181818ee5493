import { useEffect, useRef } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { useUndo } from '../api/useTransactions';
import type { LastChange } from '../undo';

/**
 * What the last change was, with Undo when it can be taken back. `focus` moves focus here when the change took away
 * what had it (a deleted row, a closed form or dialog).
 */
export function UndoBar({ change, focus, onUndone }: { change: LastChange | null; focus: boolean; onUndone: () => void }) {
  const undo = useUndo();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (change && focus) box.current?.focus();
  }, [change, focus]);
  return (
    <div className="undo-bar">
      <div ref={box} tabIndex={-1} role="status" aria-live="polite">
      {change && (
        <div className="notice undo-notice">
          <span>{change.done}</span>
          {change.why && <span className="muted"> {change.why}</span>}
          {change.undo && (
            <button type="button" className="secondary" disabled={undo.isPending} onClick={() => undo.mutate(change.undo!, { onSuccess: onUndone })}>
              {undo.isPending ? 'Undoing…' : 'Undo'}
            </button>
          )}
        </div>
      )}
      </div>
      {undo.isError && <ErrorState error={undo.error} />}
    </div>
  );
}
