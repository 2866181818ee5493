import { useId, useState, type DragEvent } from 'react';

/**
 * A file picker that also accepts a dropped file; the native input keeps it keyboard- and screen-reader-friendly.
 * `noun` says what to drop ("a QIF file"), `accept` which files the picker offers.
 */
export function DropZone({ file, onFile, noun, accept }: { file: File | null; onFile: (file: File) => void; noun: string; accept: string }) {
  const id = useId();
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
      <input id={id} type="file" accept={accept} onChange={(e) => e.target.files?.[0] && onFile(e.target.files[0])} />
      <p className="muted" aria-live="polite">
        {file ? `Selected: ${file.name} (${Math.ceil(file.size / 1024)} KB)` : 'No file selected.'}
      </p>
    </div>
  );
}
