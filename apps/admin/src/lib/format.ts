const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDateTime = (iso: string | null | undefined, empty = '—'): string => (iso ? dateTime.format(new Date(iso)) : empty);
