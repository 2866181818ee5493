import { useId, type ReactElement, cloneElement } from 'react';

type Control = ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }>;

/** A label, the control, an optional error about that control and an optional hint, wired together by id (the error marks the control invalid). */
export function Field({ label, hint, error, children }: { label: string; hint?: string; error?: string | null; children: Control }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-describedby': describedBy, ...(error ? { 'aria-invalid': true } : {}) })}
      {error && (
        <small id={errorId} className="error field-error" role="alert">
          {error}
        </small>
      )}
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
    </div>
  );
}
