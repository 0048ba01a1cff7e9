import { useTranslate } from 'react-admin';
import { PersonPicker as Picker } from '../../components/PersonPicker.js';
import { type Candidate, hotelApi } from './api.js';

/**
 * A person the session may reserve for (accredited, or with a mobilisation request sent; a
 * requester's, of its company), found by two or more letters of the name or the document.
 */
export function PersonPicker({
  id,
  value,
  onChange,
}: {
  id: string;
  value: Candidate | null;
  onChange(value: Candidate | null): void;
}) {
  const translate = useTranslate();
  return (
    <Picker
      id={id}
      value={value}
      onChange={onChange}
      find={hotelApi.people}
      queryKey="hotel-people"
      label={translate('resources.reservation.fields.IdPersona')}
      noneKey="hotel.screens.person.none"
      required
    />
  );
}
