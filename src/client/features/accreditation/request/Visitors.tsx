import AddIcon from '@mui/icons-material/PersonAdd';
import DeleteIcon from '@mui/icons-material/PersonRemove';
import { Alert, Box, Button, IconButton, Paper, Stack, Typography } from '@mui/material';
import { forwardRef, useImperativeHandle, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { VISITOR_FIELDS } from '../../../../shared/accreditation.js';
import type { FieldError } from '../../../../shared/errors.js';
import type { ResourceMeta } from '../../../../shared/schema/types.js';
import { FieldsForm, type FieldsFormHandle } from '../../../resources/form/FieldsForm.js';
import type { Visitor } from '../api.js';

export { VISITOR_FIELDS };

interface VisitorsProps {
  meta: ResourceMeta;
  visitors: Visitor[];
  onChange(visitors: Visitor[]): void;
  disabled: boolean;
  /** The server's problems, by field as it names them (Visitantes.<index>). */
  errors: Record<string, FieldError>;
}

/**
 * A visit's visitors (spec section 5: a visit must be added; a person already on the list is
 * refused): one form per visitor with its document, names and e-mail, added and removed here.
 */
export const Visitors = forwardRef<FieldsFormHandle, VisitorsProps>(function Visitors(
  { meta, visitors, onChange, disabled, errors },
  ref,
) {
  const translate = useTranslate();
  const forms = useRef<Array<FieldsFormHandle | null>>([]);
  useImperativeHandle(ref, () => ({
    validate: () =>
      visitors.length > 0 && forms.current.slice(0, visitors.length).every((f) => f?.validate() ?? true),
  }));
  const set = (index: number, visitor: Visitor) =>
    onChange(visitors.map((v, i) => (i === index ? { ...v, ...visitor } : v)));
  return (
    <Stack spacing={2} data-testid="visitors">
      {visitors.length === 0 && <Alert severity="info">{translate('accreditation.form.addVisitor')}</Alert>}
      {visitors.map((visitor, index) => (
        <Paper
          key={visitor.IdVisitaPersona ?? `new-${index}`}
          variant="outlined"
          sx={{ p: 2 }}
          data-visitor={index}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ flex: 1, fontWeight: 600 }}>
              {translate('accreditation.form.visitor', { number: index + 1 })}
            </Typography>
            {!disabled && (
              <IconButton
                aria-label={translate('accreditation.form.removeVisitor', { number: index + 1 })}
                onClick={() => onChange(visitors.filter((_, i) => i !== index))}
              >
                <DeleteIcon />
              </IconButton>
            )}
          </Box>
          {errors[`Visitantes.${index}`] && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {translate(errors[`Visitantes.${index}`].messageKey, errors[`Visitantes.${index}`].params)}
            </Alert>
          )}
          <FieldsForm
            ref={(form) => {
              forms.current[index] = form;
            }}
            meta={meta}
            fields={VISITOR_FIELDS}
            mode={visitor.IdVisitaPersona ? 'edit' : 'create'}
            value={visitor as Record<string, unknown>}
            onChange={(value) => set(index, value as Visitor)}
            disabled={disabled}
            idPrefix={`visitor${index}`}
          />
        </Paper>
      ))}
      {!disabled && (
        <Box>
          <Button
            startIcon={<AddIcon />}
            variant="outlined"
            onClick={() => onChange([...visitors, {}])}
            data-testid="add-visitor"
          >
            {translate('accreditation.form.addVisitorButton')}
          </Button>
        </Box>
      )}
    </Stack>
  );
});
