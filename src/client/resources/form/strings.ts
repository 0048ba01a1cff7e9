import { TranslatableString } from '@rjsf/utils';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const NAMES = new Map<string, string>(Object.entries(TranslatableString).map(([name, text]) => [text, name]));

/** rjsf's own texts (buttons, aria labels) from the locale files: forms.<TranslatableString name>. */
export function formStrings(translate: Translate) {
  return (text: TranslatableString, params?: string[]): string => {
    const name = NAMES.get(text);
    const args = Object.fromEntries((params ?? []).map((value, i) => [String(i + 1), value]));
    return name ? translate(`forms.${name}`, args) : text;
  };
}
