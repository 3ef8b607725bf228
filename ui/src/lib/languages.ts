// Languages as the person reads them: the codes whisper takes, named in the
// browser's own words (Intl.DisplayNames, nothing fetched), and the short
// list the app offers (any other code a meeting has is added to it).

/** Codes offered first: `auto` (detect), then widely spoken languages. */
export const LANGUAGE_CODES = [
  'auto', 'en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'da', 'no', 'fi', 'cs', 'hu',
  'ro', 'el', 'tr', 'ru', 'uk', 'ar', 'he', 'hi', 'ja', 'ko', 'zh', 'id', 'vi', 'th',
] as const;

let names: Intl.DisplayNames | null = null;

/** "German" for `de`, "Detect automatically" for `auto`; the code itself if unknown. */
export function languageName(code: string | null | undefined): string {
  if (!code) return 'Not known yet';
  if (code === 'auto') return 'Detect automatically';
  try {
    names ??= new Intl.DisplayNames(['en'], { type: 'language' });
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The codes to offer, with `current` among them. */
export function languageChoices(current: string | null | undefined): string[] {
  const codes: string[] = [...LANGUAGE_CODES];
  if (current && !codes.includes(current)) codes.push(current);
  return codes;
}
