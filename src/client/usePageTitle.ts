import { useEffect } from 'react';

/**
 * The browser tab's title names the screen, and the record on a record's page: "Juan Pérez ·
 * Persona · Acreditación". Empty parts are left out.
 */
export function usePageTitle(parts: ReadonlyArray<string | null | undefined | false>, product: string): void {
  const title = [...parts.filter((part): part is string => Boolean(part)), product].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
