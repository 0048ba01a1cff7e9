import { Button, type ButtonProps } from '@mui/material';
import { useNotify } from 'react-admin';

/**
 * A button whose action works on the rows selected (a bulk delete, a decision on several): it is
 * never greyed for want of a selection; pressed with nothing selected it says "Select a row"
 * (spec section 8) and does nothing else.
 */
export function SelectionButton({ selected, onClick, ...props }: ButtonProps & { selected: number }) {
  const notify = useNotify();
  return (
    <Button
      {...props}
      data-selected={selected}
      onClick={(event) => {
        if (selected > 0) onClick?.(event);
        else notify('app.selectRow', { type: 'warning' });
      }}
    />
  );
}
