import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** The charts' own texts (loading, no data) in the user's language: the library has no Spanish. */
export function ChartTexts({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  return (
    <ChartsLocalizationProvider
      localeText={{ loading: translate('ra.page.loading'), noData: translate('hotel.screens.noData') }}
    >
      {children}
    </ChartsLocalizationProvider>
  );
}
