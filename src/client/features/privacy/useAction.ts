import { useState } from 'react';
import { useNotify } from 'react-admin';

/**
 * One call of a data-protection action at a time: `busy` while it runs (its buttons disabled), and
 * the server's refusal told as a warning.
 */
export function useAction(): { busy: boolean; run: (work: () => Promise<void>) => Promise<void> } {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      notify((error as Error).message, { type: 'warning' });
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
