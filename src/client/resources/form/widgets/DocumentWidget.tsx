import { TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { useGetOne, useTranslate } from 'react-admin';
import { DEFAULT_DOCUMENT_LENGTH } from '../../../../shared/constants.js';
import {
  checkDocument,
  type DocumentTypeRule,
  formatDocument,
  normalizeDocument,
} from '../../../../shared/rules.js';
import type { FieldProblem } from '../../../../shared/validation.js';
import { formValues } from './ReferenceWidget.js';

/** What the form knows of each document's problem, for its validation before saving. */
export type DocumentProblems = Record<string, FieldProblem | undefined>;

/**
 * An identity document, typed as people write it or bare (12.345.678-5 or 123456785): the form
 * keeps the bare form (the server stores that one) and shows it through the type's mask once the
 * user leaves the field. As the user types, it is checked against its type (characters, length,
 * mask, check digit) by the same function the server uses.
 */
export default function DocumentWidget(props: WidgetProps) {
  const {
    id,
    name,
    value,
    onChange,
    onBlur,
    onFocus,
    label,
    required,
    disabled,
    readonly,
    rawErrors,
    options,
  } = props;
  const translate = useTranslate();
  const context = (props.registry.formContext ?? {}) as { documentProblems?: DocumentProblems };
  const typeId = formValues(props)[String(options.typeField)];
  const { data: type } = useGetOne<DocumentTypeRule & { id: number }>(
    'document-type',
    { id: typeId as number },
    { enabled: typeId !== undefined && typeId !== null },
  );
  const mask = type?.Mascara ?? undefined;
  const stored = typeof value === 'string' ? value : '';
  const [text, setText] = useState(() => formatDocument(stored, mask));
  const [editing, setEditing] = useState(false);
  // A value set from outside (the record loaded, the type's mask known) shows through the mask.
  useEffect(() => {
    if (!editing && normalizeDocument(text) !== stored) setText(formatDocument(stored, mask));
  }, [stored, mask, editing, text]);
  useEffect(() => {
    if (!editing) setText((shown) => formatDocument(normalizeDocument(shown), mask));
  }, [mask, editing]);

  const problem = type && stored ? checkDocument(stored, type) : undefined;
  if (context.documentProblems) context.documentProblems[name] = problem;
  const length = type?.Longitud ?? DEFAULT_DOCUMENT_LENGTH;
  const hint = type
    ? translate(type.LongitudFija === 'S' ? 'app.form.documentExact' : 'app.form.documentMax', {
        length,
        mask: mask ?? '—',
      })
    : translate('app.form.documentType');
  // The live problem shows here until the form's own check (on save) lists it under the field.
  const live = problem && !rawErrors?.length ? translate(problem.messageKey, problem.params) : undefined;
  return (
    <TextField
      id={id}
      label={label}
      required={required}
      fullWidth
      value={text}
      disabled={disabled || readonly}
      error={(rawErrors?.length ?? 0) > 0 || Boolean(live)}
      helperText={live ?? hint}
      slotProps={{
        htmlInput: {
          // The bare number, or the number as its mask writes it.
          maxLength: Math.max(length, mask?.length ?? 0),
        },
      }}
      onChange={(event) => {
        const typed = event.target.value.toLocaleUpperCase('es');
        setEditing(true);
        setText(typed);
        const normal = normalizeDocument(typed);
        onChange(normal || undefined);
      }}
      onBlur={(event) => {
        setEditing(false);
        setText(formatDocument(normalizeDocument(event.target.value), mask));
        onBlur(id, stored);
      }}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
