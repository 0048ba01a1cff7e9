import { describe, expect, it } from 'vitest';
import { isCommonPassword } from '../../src/server/auth/breached.js';
import { temporaryPassword } from '../../src/server/features/security/hooks.js';
import { passwordProblems } from '../../src/shared/password-policy.js';
import { profileTypeOf } from '../../src/shared/session.js';

const keys = (password: string, level: 'B' | 'I' | 'A', minLength = 6) =>
  passwordProblems(password, { level, minLength }).map((p) => p.messageKey);

describe('password policy levels (spec section 5)', () => {
  it('B, basic: only the length counts', () => {
    expect(keys('abcdef', 'B')).toEqual([]);
    expect(keys('123456', 'B')).toEqual([]);
    expect(keys('abc', 'B')).toEqual(['password.tooShort']);
  });

  it('I, intermediate: a digit and a letter', () => {
    expect(keys('mina2026', 'I')).toEqual([]);
    expect(keys('minerales', 'I')).toEqual(['password.needsDigit']);
    expect(keys('20262026', 'I')).toEqual(['password.needsLetter']);
  });

  it('A, advanced: a digit, an upper-case and a lower-case letter and a symbol', () => {
    expect(keys('Minera#2026', 'A')).toEqual([]);
    expect(keys('Ñandú-2026', 'A')).toEqual([]);
    expect(keys('minera#2026', 'A')).toEqual(['password.needsUpper']);
    expect(keys('MINERA#2026', 'A')).toEqual(['password.needsLower']);
    expect(keys('Minera2026', 'A')).toEqual(['password.needsSymbol']);
    expect(keys('Minera#mina', 'A')).toEqual(['password.needsDigit']);
  });

  it('takes the minimum from the setting and keeps the maximum below 100', () => {
    expect(passwordProblems('Ab#1xyz', { level: 'A', minLength: 8 })).toEqual([
      { messageKey: 'password.tooShort', params: { min: 8 } },
    ]);
    expect(keys(`Ab#1${'x'.repeat(96)}`, 'A')).toEqual(['password.tooLong']);
    expect(keys(`Ab#1${'x'.repeat(95)}`, 'A')).toEqual([]);
  });

  it('knows the commonly breached passwords, whatever their case', () => {
    expect(isCommonPassword('password1')).toBe(true);
    expect(isCommonPassword('P@ssw0rd')).toBe(true);
    expect(isCommonPassword('PASSWORD1')).toBe(true);
    expect(isCommonPassword('qwerty')).toBe(true);
    expect(isCommonPassword('Acredita#2026')).toBe(false);
  });

  it('makes temporary passwords that pass the strictest level', () => {
    for (let i = 0; i < 50; i++) expect(keys(temporaryPassword(), 'A', 12)).toEqual([]);
  });
});

describe('profile type', () => {
  it('authoriser wins, then requester, then administrator', () => {
    expect(profileTypeOf(['ADM', 'SOL', 'AUT'])).toBe('authoriser');
    expect(profileTypeOf(['ADM', 'SOL'])).toBe('requester');
    expect(profileTypeOf(['ADM'])).toBe('administrator');
    expect(profileTypeOf([])).toBe('none');
  });
});
