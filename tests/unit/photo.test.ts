import { describe, expect, it } from 'vitest';
import {
  checkPhotoFile,
  checkPhotoSize,
  DEFAULT_PHOTO_LIMITS,
  photoLimits,
  photoRanges,
} from '../../src/shared/photo.js';

describe('photo checks of spec section 5', () => {
  const limits = photoLimits({
    maxKilobytes: { Valor1: '5000' },
    size: { Valor1: '150', Valor2: '160' },
    maxMegabytes: { Valor1: '2' },
  });

  it('reads the client’s parameters, the smaller size limit holding', () => {
    expect(limits).toEqual({ maxKilobytes: 2048, width: 150, height: 160, tolerance: 0.25 });
    expect(photoLimits({})).toEqual(DEFAULT_PHOTO_LIMITS);
    expect(photoLimits({ size: { Valor1: 'x' } }).width).toBe(150);
    expect(photoRanges(limits)).toEqual({ minWidth: 113, maxWidth: 187, minHeight: 120, maxHeight: 200 });
  });

  it('takes .png, .jpg and .jpeg files under the size limit', () => {
    expect(checkPhotoFile({ name: 'foto.JPG', size: 40_000, type: 'image/jpeg' }, limits)).toBeUndefined();
    expect(checkPhotoFile({ name: 'foto.png', size: 40_000, type: 'image/png' }, limits)).toBeUndefined();
    expect(checkPhotoFile({ name: 'foto.gif', size: 40_000, type: 'image/gif' }, limits)?.messageKey).toBe(
      'app.image.badType',
    );
    expect(checkPhotoFile({ name: 'foto.png', size: 3_000_000, type: 'image/png' }, limits)).toEqual({
      messageKey: 'app.image.tooBig',
      params: { kb: 2930, max: 2048 },
    });
  });

  it('takes dimensions within the suggested size, give or take the tolerance, and names both', () => {
    expect(checkPhotoSize(150, 160, limits)).toBeUndefined();
    expect(checkPhotoSize(113, 200, limits)).toBeUndefined();
    expect(checkPhotoSize(3000, 4000, limits)).toEqual({
      messageKey: 'app.image.badSize',
      params: { width: 3000, height: 4000, minWidth: 113, maxWidth: 187, minHeight: 120, maxHeight: 200 },
    });
  });
});
