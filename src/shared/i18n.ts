import type { MessageParams } from './errors.js';

export type Messages = { [key: string]: string | Messages };

/** Looks up a dotted key in a message tree; undefined when absent or not a leaf. */
export function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Replaces polyglot-style %{name} placeholders. */
export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/%\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

export function translate(messages: Messages, key: string, params?: MessageParams): string | undefined {
  const template = lookup(messages, key);
  return template === undefined ? undefined : interpolate(template, params);
}

/** Every leaf key of a message tree, dotted. */
export function leafKeys(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}
