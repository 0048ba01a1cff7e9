import { PHOTO } from './constants.js';

/** The limits a photo must meet (spec section 5), from the client's parameters or the defaults. */
export interface PhotoLimits {
  maxKilobytes: number;
  width: number;
  height: number;
  tolerance: number;
}

export const DEFAULT_PHOTO_LIMITS: PhotoLimits = {
  maxKilobytes: PHOTO.maxKilobytes,
  width: PHOTO.defaultWidth,
  height: PHOTO.defaultHeight,
  tolerance: PHOTO.dimensionTolerance,
};

const positive = (value: unknown): number | undefined => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * The limits from the parameters MAXIMAGESIZECLIENTE (KB), CLIENTIMAGERATIO (width in Valor1,
 * height in Valor2) and SIZEMAXPHOTOUPLOAD (MB): the smaller of the two sizes holds.
 */
export function photoLimits(parameters: {
  maxKilobytes?: { Valor1?: unknown } | null;
  size?: { Valor1?: unknown; Valor2?: unknown } | null;
  maxMegabytes?: { Valor1?: unknown } | null;
}): PhotoLimits {
  const kb = positive(parameters.maxKilobytes?.Valor1) ?? DEFAULT_PHOTO_LIMITS.maxKilobytes;
  const mb = positive(parameters.maxMegabytes?.Valor1);
  return {
    maxKilobytes: Math.min(kb, mb ? mb * 1024 : kb),
    width: positive(parameters.size?.Valor1) ?? DEFAULT_PHOTO_LIMITS.width,
    height: positive(parameters.size?.Valor2) ?? DEFAULT_PHOTO_LIMITS.height,
    tolerance: DEFAULT_PHOTO_LIMITS.tolerance,
  };
}

export interface PhotoRanges {
  minWidth: number;
  maxWidth: number;
  minHeight: number;
  maxHeight: number;
}

export function photoRanges(limits: PhotoLimits): PhotoRanges {
  const t = limits.tolerance;
  return {
    minWidth: Math.ceil(limits.width * (1 - t)),
    maxWidth: Math.floor(limits.width * (1 + t)),
    minHeight: Math.ceil(limits.height * (1 - t)),
    maxHeight: Math.floor(limits.height * (1 + t)),
  };
}

export type PhotoProblem =
  | { messageKey: 'app.image.badType'; params: { name: string } }
  | { messageKey: 'app.image.tooBig'; params: { kb: number; max: number } }
  | { messageKey: 'app.image.badSize'; params: PhotoRanges & { width: number; height: number } };

/** The file's type and size against the limits, before it is read. */
export function checkPhotoFile(
  file: { name: string; size: number; type: string },
  limits: PhotoLimits,
): PhotoProblem | undefined {
  const name = file.name.toLowerCase();
  const typeOk = /^image\/(png|jpeg)$/.test(file.type) || file.type === '';
  if (!PHOTO.extensions.some((ext) => name.endsWith(ext)) || !typeOk)
    return { messageKey: 'app.image.badType', params: { name: file.name } };
  const kb = Math.ceil(file.size / 1024);
  if (kb > limits.maxKilobytes)
    return { messageKey: 'app.image.tooBig', params: { kb, max: limits.maxKilobytes } };
  return undefined;
}

/** The image's dimensions against the suggested size, give or take the tolerance. */
export function checkPhotoSize(width: number, height: number, limits: PhotoLimits): PhotoProblem | undefined {
  const ranges = photoRanges(limits);
  if (
    width < ranges.minWidth ||
    width > ranges.maxWidth ||
    height < ranges.minHeight ||
    height > ranges.maxHeight
  )
    return { messageKey: 'app.image.badSize', params: { ...ranges, width, height } };
  return undefined;
}
