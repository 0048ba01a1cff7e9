import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/**
 * The charts' own texts in the user's language (the library has no Spanish): loading, and what
 * an empty chart says (`noData`, the screen's words for it).
 */
export function ChartTexts({ noData, children }: { noData: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <ChartsLocalizationProvider localeText={{ loading: translate('ra.page.loading'), noData }}>
      {children}
    </ChartsLocalizationProvider>
  );
}
