/** Shortens a text to `max` characters with an ellipsis (the header's limits of spec section 9). */
export function truncate(text: string | null | undefined, max: number): string {
  if (!text) return '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
