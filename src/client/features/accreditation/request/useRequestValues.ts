import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import {
  type EntityCode,
  HEADER_FIELDS,
  PERSON_FIELDS,
  VEHICLE_FIELDS,
} from '../../../../shared/accreditation.js';
import type { FieldError } from '../../../../shared/errors.js';
import { accreditationApi, type Detail, type RequestRecord, type Visitor } from '../api.js';
import { DATE_FIELDS, pick } from './fields.js';
import { useKnownHolder } from './KnownHolder.js';
import { useDateProblems } from './useDateProblems.js';

export type Data = Record<string, unknown>;

export interface FormProps {
  entity: EntityCode;
  record?: RequestRecord;
  detail?: Detail;
}

/** The values typed so far (header, holder, visitors, requirement values, photo) and their problems. */
export function useRequestValues({ entity, record }: Pick<FormProps, 'entity' | 'record'>) {
  const translate = useTranslate();
  const isNew = !record;
  const [header, setHeader] = useState<Data>(() => ({ ...pick(record, HEADER_FIELDS), IdEntidad: entity }));
  const [holder, setHolder] = useState<Data>(() =>
    pick(record, entity === 'T' ? PERSON_FIELDS : entity === 'V' ? VEHICLE_FIELDS : []),
  );
  const [visitors, setVisitors] = useState<Visitor[]>(() => record?.Visitantes ?? []);
  const known = useKnownHolder(entity, isNew, holder, (found) =>
    setHolder((typed) => {
      const fields = entity === 'T' ? PERSON_FIELDS : VEHICLE_FIELDS;
      const empty = (value: unknown) => value === undefined || value === null || value === '';
      return {
        ...typed,
        ...pick(
          found,
          fields.filter((f) => empty(typed[f])),
        ),
      };
    }),
  );
  const [edits, setEdits] = useState<Record<string, string | null>>({});
  /** The additional data's values typed, by datum. */
  const [additional, setAdditional] = useState<Record<number, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [photo, setPhoto] = useState<string>();
  const [serverErrors, setErrors] = useState<Record<string, FieldError>>({});
  // The request's dates, checked as the server checks them (src/shared/request-dates.ts): on the
  // step where they are, under the field, once the step is left or the dates were refused; a
  // problem goes as soon as the value is fixed.
  const dateProblems = useDateProblems(entity, header, holder);
  const [datesShown, setDatesShown] = useState<string[]>([]);
  const errors: Record<string, FieldError> = { ...serverErrors };
  for (const field of DATE_FIELDS) {
    const problem = dateProblems[field];
    if (datesShown.includes(field) || serverErrors[field])
      if (problem) errors[field] = { ...problem, message: translate(problem.messageKey, problem.params) };
      else delete errors[field];
  }
  const [busy, setBusy] = useState<string>();
  const stored = useQuery({
    queryKey: ['accreditation', 'photo', record?.IdSolicitud, record?.ClaveFoto],
    queryFn: async () => {
      const file = await accreditationApi.photo(record?.IdSolicitud as number);
      return `data:image/${file.file.startsWith('/9j') ? 'jpeg' : 'png'};base64,${file.file}`;
    },
    enabled: entity === 'T' && Boolean(record?.ClaveFoto),
  });
  return {
    header,
    setHeader,
    holder,
    setHolder,
    visitors,
    setVisitors,
    known,
    edits,
    setEdits,
    additional,
    setAdditional,
    problems,
    setProblems,
    photo,
    setPhoto,
    storedPhoto: stored.data,
    errors,
    setErrors,
    dateProblems,
    setDatesShown,
    busy,
    setBusy,
  };
}

export type RequestValues = ReturnType<typeof useRequestValues>;
