import { useMemo, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { QueryState } from '../../../components/QueryState';
import { useCurrencyOptions } from '../../../components/useCurrencyOptions';
import { problemsOf } from '../../../lib/api/field-errors';
import { useHouseholdSettings, useUpdateHousehold, type FamilySettings, type FamilySettingsChanges } from '../api/useHousehold';

type Key = 'name' | 'currency' | 'locale' | 'timezone' | 'date_format' | 'month_start_day';

const FIELDS: Record<Key, { property: string; label: string }> = {
  name: { property: 'name', label: 'The household name' },
  currency: { property: 'currency', label: 'The currency' },
  locale: { property: 'locale', label: 'The locale' },
  timezone: { property: 'timezone', label: 'The time zone' },
  date_format: { property: 'date_format', label: 'The date format' },
  month_start_day: { property: 'month_start_day', label: 'The month start day' },
};

/** The date formats the API takes (strftime), each shown with 28 February 2026 written that way. */
const DATE_FORMATS: Array<[string, string]> = [
  ['%Y-%m-%d', '2026-02-28'],
  ['%m/%d/%Y', '02/28/2026'],
  ['%d/%m/%Y', '28/02/2026'],
  ['%d.%m.%Y', '28.02.2026'],
  ['%d-%m-%Y', '28-02-2026'],
  ['%m-%d-%Y', '02-28-2026'],
  ['%Y/%m/%d', '2026/02/28'],
  ['%Y.%m.%d', '2026.02.28'],
  ['%e/%m/%Y', '28/02/2026 (day without a leading zero)'],
  ['%Y%m%d', '20260228'],
  ['%d %b %Y', '28 Feb 2026'],
];

const LOCALES = ['en', 'en-US', 'en-GB', 'en-CA', 'en-AU', 'de', 'de-DE', 'de-AT', 'de-CH', 'fr', 'fr-FR', 'fr-CA', 'es', 'es-ES', 'es-MX', 'it', 'nl', 'pt', 'pt-BR', 'pl', 'sv', 'da', 'nb', 'fi', 'ja', 'zh', 'ko'];

type Form = { name: string; currency: string; locale: string; timezone: string; date_format: string; month_start_day: string };

const formOf = (s: FamilySettings): Form => ({
  name: s.name,
  currency: s.currency,
  locale: s.locale,
  timezone: s.timezone ?? '',
  date_format: s.date_format,
  month_start_day: String(s.month_start_day),
});

function SettingsForm({ settings }: { settings: FamilySettings }) {
  const update = useUpdateHousehold();
  const currencies = useCurrencyOptions();
  const timeZones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const [form, setForm] = useState<Form>(() => formOf(settings));
  const [saved, setSaved] = useState(false);
  const problems = update.isError ? problemsOf(update.error, FIELDS) : null;
  const set = (key: keyof Form) => (e: { target: { value: string } }) => {
    setSaved(false);
    setForm({ ...form, [key]: e.target.value });
  };
  const languageNames = useMemo(() => new Intl.DisplayNames(undefined, { type: 'language' }), []);
  const locales = LOCALES.includes(form.locale) ? LOCALES : [form.locale, ...LOCALES];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const before = formOf(settings);
    const changes: FamilySettingsChanges = {};
    if (form.name.trim() !== before.name) changes.name = form.name.trim();
    if (form.currency !== before.currency) changes.currency = form.currency;
    if (form.locale !== before.locale) changes.locale = form.locale;
    if (form.timezone && form.timezone !== before.timezone) changes.timezone = form.timezone;
    if (form.date_format !== before.date_format) changes.date_format = form.date_format as FamilySettingsChanges['date_format'];
    if (form.month_start_day !== before.month_start_day) changes.month_start_day = Number(form.month_start_day);
    update.mutate(changes, { onSuccess: (next) => [setForm(formOf(next)), setSaved(true)] });
  };

  return (
    <form className="settings-form" onSubmit={submit}>
      <Field label="Household name" error={problems?.fields.name}>
        <input required maxLength={200} value={form.name} onChange={set('name')} />
      </Field>
      <Field label="Currency" hint="Budgets are kept in it; amounts in other currencies are converted." error={problems?.fields.currency}>
        <select value={form.currency} onChange={set('currency')}>
          {currencies.map(({ code, label }) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Locale" hint="How names of months and amounts are written." error={problems?.fields.locale}>
        <select value={form.locale} onChange={set('locale')}>
          {locales.map((code) => (
            <option key={code} value={code}>
              {`${code} — ${languageNames.of(code) ?? code}`}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Time zone" hint="Decides which day it is, so which budget month is running." error={problems?.fields.timezone}>
        <select value={form.timezone} onChange={set('timezone')}>
          {!form.timezone && <option value="">Not set (UTC)</option>}
          {timeZones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Date format" error={problems?.fields.date_format}>
        <select value={form.date_format} onChange={set('date_format')}>
          {DATE_FORMATS.map(([format, example]) => (
            <option key={format} value={format}>
              {example}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Budget month starts on day" hint="1 to 28: a budget month runs from this day to the day before it in the next month." error={problems?.fields.month_start_day}>
        <select value={form.month_start_day} onChange={set('month_start_day')}>
          {Array.from({ length: 28 }, (_, i) => String(i + 1)).map((day) => (
            <option key={day} value={day}>
              {day}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" disabled={update.isPending || !form.name.trim()}>
        {update.isPending ? 'Saving…' : 'Save settings'}
      </button>
      <div className="status-slot" role="status">
        {saved && !update.isPending && <p>Settings saved.</p>}
      </div>
      {problems?.form && <ErrorState error={update.error} />}
    </form>
  );
}

/** The household's settings; only administrators change them (the API refuses members). */
export function HouseholdPage() {
  const settings = useHouseholdSettings();
  return (
    <section className="page">
      <h1 tabIndex={-1}>Household</h1>
      <p className="muted">These settings apply to everyone in the household: every budget and amount follows them.</p>
      <section className="card narrow-form" aria-labelledby="household-title">
        <h2 id="household-title">Settings</h2>
        <QueryState query={settings} loading="Loading settings…">
          {(data) => <SettingsForm key={data.id} settings={data} />}
        </QueryState>
      </section>
    </section>
  );
}
