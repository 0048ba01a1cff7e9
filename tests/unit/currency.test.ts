import { describe, expect, it } from 'vitest';
import { amountText } from '../../src/shared/dining.js';

/** Amounts kept in cents, shown in the client's currency (System > Currency: symbol and decimals). */
describe('amounts in the client’s currency', () => {
  it('shows soles with two decimals and the symbol, thousands grouped', () => {
    expect(amountText(1890, { Simbolo: 'S/', Decimales: 2 })).toBe('S/ 18.90');
    expect(amountText(123456789, { Simbolo: 'S/', Decimales: 2 })).toBe('S/ 1,234,567.89');
  });
  it('rounds Chilean pesos to whole units', () => {
    expect(amountText(189050, { Simbolo: '$', Decimales: 0 })).toBe('$ 1,891');
    expect(amountText(49, { Simbolo: '$', Decimales: 0 })).toBe('$ 0');
  });
  it('keeps the sign, and without a currency shows two decimals and no symbol', () => {
    expect(amountText(-1890, { Simbolo: 'US$', Decimales: 2 })).toBe('US$ -18.90');
    expect(amountText(1890)).toBe('18.90');
    expect(amountText(5, { Simbolo: 'Bs', Decimales: 3 })).toBe('Bs 0.050');
  });
});
