import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import DeleteIcon from '@mui/icons-material/Delete';
import PersonIcon from '@mui/icons-material/Person';
import { Avatar, Box, Button, FormHelperText, FormLabel, Stack } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, useId, useRef } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { PHOTO, TOAST_MS } from '../../../../shared/constants.js';
import {
  checkPhotoFile,
  checkPhotoSize,
  DEFAULT_PHOTO_LIMITS,
  type PhotoLimits,
  type PhotoProblem,
  photoLimits,
  photoRanges,
} from '../../../../shared/photo.js';
import { apiCall } from '../../../session/http.js';

type Parameter = { Valor1?: unknown; Valor2?: unknown } | null;

/** The client's photo limits, from its parameters (spec section 7's sistemaConfiguracion/obtener). */
export function usePhotoLimits(): PhotoLimits {
  const { data } = useQuery({
    queryKey: ['photo-limits'],
    staleTime: 5 * 60_000,
    queryFn: async () => {
      const read = (id: string) =>
        apiCall<Parameter>('GET', `/api/sistemaConfiguracion/obtener?IdConfiguracion=${id}`).catch(
          () => null,
        );
      const { maxKilobytes, size, maxMegabytes } = PHOTO.parameters;
      const [kb, ratio, mb] = await Promise.all([read(maxKilobytes), read(size), read(maxMegabytes)]);
      return photoLimits({ maxKilobytes: kb, size: ratio, maxMegabytes: mb });
    },
  });
  return data ?? DEFAULT_PHOTO_LIMITS;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** An image's width and height, read by the browser from the file. */
function dimensions(file: File): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      resolve({ width: image.naturalWidth, height: image.naturalHeight });
      URL.revokeObjectURL(url);
    };
    image.onerror = () => {
      reject(new Error('unreadable'));
      URL.revokeObjectURL(url);
    };
    image.src = url;
  });
}

export type ChosenPhotoProblem = PhotoProblem | { messageKey: string; params: Record<string, unknown> };

/**
 * What is wrong with a photo chosen to upload, as the server will judge it (spec section 5):
 * its type and size, its dimensions against the client's limits, or a file no browser can read.
 */
export async function chosenPhotoProblem(
  file: File,
  limits: PhotoLimits,
): Promise<ChosenPhotoProblem | undefined> {
  const problem = checkPhotoFile(file, limits);
  if (problem) return problem;
  try {
    const size = await dimensions(file);
    return checkPhotoSize(size.width, size.height, limits);
  } catch {
    return { messageKey: 'app.image.unreadable', params: { name: file.name } };
  }
}

/**
 * A photo (x-widget image) with its preview, a button to choose or change it and one to remove
 * it, and the suggested size as a hint. A file that is not a .png, .jpg or .jpeg image, is larger
 * than the client allows, or whose dimensions stray from the suggested size by more than the
 * tolerance is refused with a three-second message saying why (spec section 5), and cleared.
 */
export default function ImageWidget(props: WidgetProps) {
  const { id, value, onChange, label, required, disabled, readonly, rawErrors } = props;
  return (
    <PhotoPicker
      id={id}
      value={value}
      onChange={onChange}
      label={label}
      required={required}
      disabled={disabled || readonly}
      error={(rawErrors?.length ?? 0) > 0}
    />
  );
}

export interface PhotoPickerProps {
  id: string;
  /** The photo as a data URL. */
  value: unknown;
  onChange(value: string | undefined): void;
  label: string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
}

/**
 * A photo with its preview, a button to choose or change it and one to remove it, and the
 * suggested size as a hint; what does not fit the client's limits is refused and cleared.
 */
export function PhotoPicker({ id, value, onChange, label, required, disabled, error }: PhotoPickerProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const limits = usePhotoLimits();
  const ranges = photoRanges(limits);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const off = disabled;
  const photo = typeof value === 'string' && value.startsWith('data:image/') ? value : undefined;

  const refuse = (problem: ChosenPhotoProblem) => {
    notify(problem.messageKey, {
      type: 'error',
      messageArgs: problem.params,
      autoHideDuration: TOAST_MS.wizard,
    });
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The input is cleared either way: choosing the same file again is a new choice.
    event.target.value = '';
    if (!file) return;
    const problem = await chosenPhotoProblem(file, limits);
    if (problem) return refuse(problem);
    try {
      onChange(await readAsDataUrl(file));
    } catch {
      refuse({ messageKey: 'app.image.unreadable', params: { name: file.name } });
    }
  };

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <FormLabel component="legend" required={required} error={error} sx={{ mb: 1 }}>
        {label}
      </FormLabel>
      <Stack direction="row" spacing={2} alignItems="center">
        <Avatar
          variant="rounded"
          src={photo}
          alt={photo ? label : undefined}
          sx={{ width: limits.width * 0.6, height: limits.height * 0.6, bgcolor: 'grey.200' }}
          data-testid="photo-preview"
        >
          <PersonIcon sx={{ fontSize: 48, color: 'grey.600' }} titleAccess={translate('app.image.none')} />
        </Avatar>
        <Stack spacing={1} alignItems="flex-start">
          <Button
            id={id}
            variant="outlined"
            size="small"
            startIcon={<AddPhotoAlternateIcon />}
            disabled={off}
            onClick={() => input.current?.click()}
            aria-describedby={hintId}
          >
            {translate(photo ? 'app.image.change' : 'app.image.choose')}
          </Button>
          <input
            ref={input}
            type="file"
            hidden
            accept={[...PHOTO.extensions, 'image/png', 'image/jpeg'].join(',')}
            onChange={choose}
            disabled={off}
            data-testid="photo-file"
          />
          {photo && !off && (
            <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => onChange(undefined)}>
              {translate('app.image.remove')}
            </Button>
          )}
        </Stack>
      </Stack>
      <FormHelperText id={hintId}>
        {translate('app.image.hint', {
          width: limits.width,
          height: limits.height,
          kb: limits.maxKilobytes,
          ...ranges,
        })}
      </FormHelperText>
    </Box>
  );
}
