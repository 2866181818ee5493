import { useId, useState, type DragEvent } from 'react';

/**
 * A file picker that also accepts a dropped file; the native input keeps it keyboard- and screen-reader-friendly.
 * `noun` says what to drop ("a QIF file"), `accept` which files the picker offers; `problem` why the file chosen is
 * not taken, shown in place of its name.
 */
export function DropZone({ file, onFile, noun, accept, problem }: { file: File | null; onFile: (file: File) => void; noun: string; accept: string; problem: string | null }) {
  const id = useId();
  const problemId = useId();
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };
  return (
    <div
      className={`dropzone${over ? ' over' : ''}`}
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <label htmlFor={id}>
        <strong>Drop {noun} here</strong> or choose one
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(e) => e.target.files?.[0] && onFile(e.target.files[0])}
      />
      {problem ? (
        <p className="error" role="alert" id={problemId}>
          {problem}
        </p>
      ) : (
        <p className="muted" aria-live="polite">
          {file ? `Selected: ${file.name} (${Math.ceil(file.size / 1024)} KB)` : 'No file selected.'}
        </p>
      )}
    </div>
  );
}
