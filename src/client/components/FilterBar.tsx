import { Card, CardContent } from '@mui/material';
import type { ReactNode } from 'react';

/** A screen's filters in a card: in a row that wraps on a desktop, two columns on a phone. */
export function FilterBar({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Card>
      <CardContent
        sx={{
          display: { xs: 'grid', sm: 'flex' },
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          flexWrap: 'wrap',
          gap: 2,
          alignItems: 'center',
        }}
        data-testid={testId}
      >
        {children}
      </CardContent>
    </Card>
  );
}
