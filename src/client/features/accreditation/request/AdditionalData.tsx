import { Box, Card, CardContent, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { additionalProblem } from '../../../../shared/additional-data.js';
import type { AdditionalValue } from '../api.js';
import type { RequestValues } from './useRequestValues.js';

/**
 * The client's additional data of the request's entity (Administration > Additional data), in their
 * order: a date, a number or a text as each datum's type says, checked as it is typed (and by the
 * server on saving), a mandatory one marked required (the request is not sent without it).
 */
export function AdditionalData({
  data,
  values,
  disabled,
}: {
  data: AdditionalValue[];
  values: RequestValues;
  disabled: boolean;
}) {
  const translate = useTranslate();
  if (!data.length) return null;
  const typed = (d: AdditionalValue) => values.additional[d.IdDatoAdicional] ?? d.Valor ?? '';
  return (
    <Card variant="outlined" data-testid="additional-data">
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {translate('accreditation.form.additionalData')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {data.map((d) => {
            const value = typed(d);
            const local = additionalProblem(d, value);
            const server = values.errors[`DatosAdicionales.${d.IdDatoAdicional}`];
            const problem = local ? translate(local.messageKey, local.params) : server?.message;
            return (
              <TextField
                key={d.IdDatoAdicional}
                id={`additional-${d.IdDatoAdicional}`}
                label={d.Dato}
                value={value}
                required={d.Obligatorio === 'S'}
                disabled={disabled}
                type={d.TipoDato === 'F' ? 'date' : 'text'}
                error={Boolean(problem)}
                helperText={problem}
                onChange={(event) =>
                  values.setAdditional((before) => ({ ...before, [d.IdDatoAdicional]: event.target.value }))
                }
                slotProps={{
                  inputLabel: d.TipoDato === 'F' ? { shrink: true } : undefined,
                  htmlInput: {
                    ...(d.TipoDato === 'N' && { inputMode: 'decimal' }),
                    ...(d.Longitud && d.TipoDato !== 'F' && { maxLength: d.Longitud }),
                  },
                }}
              />
            );
          })}
        </Box>
      </CardContent>
    </Card>
  );
}
