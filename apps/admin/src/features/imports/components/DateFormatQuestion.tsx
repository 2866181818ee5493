import { useEffect, useId, useRef, useState } from 'react';
import { humanDateFormat, parseDate } from '@hearth/domain/import-formats';
import { ApiError } from '../../../lib/api/client';

/** The formats a file's dates fit, to choose from, and a date they read differently (ambiguous_date_format). */
export interface DateFormatChoices {
  formats: string[];
  sample: string;
}

/** The choices of an ambiguous_date_format refusal; null for any other error. */
export function dateFormatChoices(error: unknown): DateFormatChoices | null {
  if (!(error instanceof ApiError) || error.code !== 'ambiguous_date_format') return null;
  const { date_formats: formats, date_sample: sample } = error.body;
  if (!Array.isArray(formats) || formats.length < 2 || typeof sample !== 'string') return null;
  return { formats: formats.map(String), sample };
}

/** "3 April 2026": the month spelled out, so a reading cannot be mistaken for the other order. */
const spelled = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const readAs = (sample: string, format: string) => {
  const iso = parseDate(sample, format);
  return iso ? spelled.format(new Date(`${iso}T00:00:00Z`)) : sample;
};

/**
 * The question asked when a file's dates fit two formats (no day is above 12): each format with the file's date read
 * that way. Nothing is chosen for the user; `onChoose` sends the file again with the chosen one as its date_format.
 */
export function DateFormatQuestion({
  choices,
  pending,
  onChoose,
  action = 'Upload',
  kept = 'nothing is stored until you do',
}: {
  choices: DateFormatChoices;
  pending: boolean;
  onChoose: (format: string) => void;
  /** What the answer does: Upload (a new import) or Save (an import's configuration). */
  action?: 'Upload' | 'Save';
  /** What stays as it is until the user answers. */
  kept?: string;
}) {
  const name = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The question replaces the Upload's answer: focus moves to it, as to an error.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card date-question" aria-labelledby={`${name}-title`}>
      <h2 id={`${name}-title`} ref={heading} tabIndex={-1}>
        Which date format does the file use?
      </h2>
      <p>
        Its dates fit more than one format: no day is above 12, so day and month cannot be told apart. Choose how to read them; {kept}.
      </p>
      <fieldset>
        <legend className="visually-hidden">Date format</legend>
        {choices.formats.map((format) => (
          <label key={format} className="choice">
            <input type="radio" name={name} value={format} checked={chosen === format} onChange={() => setChosen(format)} />
            <span>
              <strong>{humanDateFormat(format)}</strong>
              <span className="muted">
                {' '}
                {choices.sample} → {readAs(choices.sample, format)}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <button type="button" disabled={!chosen || pending} onClick={() => chosen && onChoose(chosen)}>
        {pending ? (action === 'Upload' ? 'Uploading…' : 'Saving…') : `${action} with this date format`}
      </button>
    </section>
  );
}
