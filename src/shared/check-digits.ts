/** Check digits of the region's tax and identity numbers: Peruvian RUC, Chilean RUT and RUN. */

/** Peruvian RUC: 10 digits plus a modulo-11 check digit. */
export function rucCheckDigit(first10: string): number {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = [...first10].reduce((acc, d, i) => acc + Number(d) * weights[i], 0);
  const r = 11 - (sum % 11);
  return r === 10 ? 0 : r === 11 ? 1 : r;
}

/** Chilean RUT/RUN: modulo 11 with weights 2..7 from the right; 10 is K. */
export function rutCheckDigit(body: string): string {
  let sum = 0;
  let weight = 2;
  for (const d of [...body].reverse()) {
    sum += Number(d) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const r = 11 - (sum % 11);
  return r === 11 ? '0' : r === 10 ? 'K' : String(r);
}
