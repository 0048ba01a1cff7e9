import { Button, type ButtonProps, Tooltip } from '@mui/material';
import { useId } from 'react';

/**
 * A button that, when it cannot be used, says why: with a `reason` it looks disabled and does
 * nothing, but stays in the tab order so the reason shows on hover and on keyboard focus (a
 * tooltip, and the button's description for screen readers). A truly disabled button can neither
 * be hovered nor focused, so nobody would learn why.
 */
export function ReasonButton({ reason, onClick, sx, ...props }: ButtonProps & { reason?: string | null }) {
  const id = useId();
  if (!reason) return <Button onClick={onClick} sx={sx} {...props} />;
  return (
    <Tooltip title={reason} describeChild>
      <Button
        {...props}
        aria-disabled="true"
        aria-describedby={`${id}-reason`}
        data-reason={reason}
        onClick={(event) => event.preventDefault()}
        sx={[
          (theme) => ({
            color: `${theme.palette.action.disabled} !important`,
            borderColor: `${theme.palette.action.disabledBackground} !important`,
            ...(props.variant === 'contained'
              ? {
                  backgroundColor: `${theme.palette.action.disabledBackground} !important`,
                  boxShadow: 'none',
                }
              : {}),
            cursor: 'not-allowed',
          }),
          ...(Array.isArray(sx) ? sx : sx ? [sx] : []),
        ]}
      >
        {props.children}
        <span id={`${id}-reason`} hidden>
          {reason}
        </span>
      </Button>
    </Tooltip>
  );
}
