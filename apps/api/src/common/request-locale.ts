import { ApiHeader } from '@nestjs/swagger';
import { ApiError } from './api-error';

/** Locale for money strings and names: `?locale=`, else the best `Accept-Language` entry this runtime supports. */
export const DEFAULT_LOCALE = 'en';

/** The canonical tag when Intl can format for it (directly or through its language), else undefined. */
function supported(tag: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return Intl.NumberFormat.supportedLocalesOf([canonical]).length ? canonical : undefined;
  } catch {
    return undefined;
  }
}

/** "de-CH;q=0.9, en;q=0.8, *;q=0.1" -> ["de-CH", "en"] by falling quality; q=0 and "*" are dropped. */
function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(param)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), quality: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * Negotiates the response locale. An explicit `?locale=` must be a well-formed language tag (RangeError otherwise);
 * one this runtime cannot format for falls through to Accept-Language, then to "en".
 */
export function negotiateLocale(explicit: string | undefined, acceptLanguage: string | undefined): string {
  if (explicit !== undefined) {
    Intl.getCanonicalLocales(explicit); // throws RangeError on a malformed tag
    const chosen = supported(explicit);
    if (chosen) return chosen;
  }
  for (const tag of acceptedLanguages(acceptLanguage ?? '')) {
    const chosen = supported(tag);
    if (chosen) return chosen;
  }
  return DEFAULT_LOCALE;
}

/** negotiateLocale for a request: a malformed `?locale=` is a 422 naming the parameter. */
export function requestLocale(explicit: string | undefined, acceptLanguage: string | undefined): string {
  try {
    return negotiateLocale(explicit, acceptLanguage);
  } catch {
    throw ApiError.validation(['locale must be a BCP 47 language tag, e.g. en or de-CH']);
  }
}

/** OpenAPI for a route reading `@Headers('accept-language')`, which Nest would document as required: it is optional. */
export const LanguageHeader = () =>
  ApiHeader({ name: 'accept-language', required: false, description: 'Used when ?locale= is absent; without either, en' });
