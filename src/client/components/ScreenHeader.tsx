import { Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A feature screen's heading card: its title, then its controls, wrapping on a narrow screen. */
export function ScreenHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Card>
      <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Typography variant="h6" component="h1" sx={{ flex: '1 1 auto' }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
