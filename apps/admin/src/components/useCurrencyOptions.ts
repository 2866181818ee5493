import { useMemo } from 'react';
import { currencyCodes } from '@hearth/domain/money';

/** The ISO 4217 codes the API accepts, each with its name in the reader's language ("EUR — Euro"). */
export function useCurrencyOptions(): Array<{ code: string; label: string }> {
  return useMemo(() => {
    const names = new Intl.DisplayNames(undefined, { type: 'currency' });
    return currencyCodes().map((code) => ({ code, label: `${code} — ${names.of(code) ?? code}` }));
  }, []);
}
