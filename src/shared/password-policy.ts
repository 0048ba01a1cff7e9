import { PASSWORD } from './constants.js';

export type SecurityLevel = (typeof PASSWORD.levels)[number];

export interface PasswordPolicy {
  level: SecurityLevel;
  minLength: number;
}

export const DEFAULT_POLICY: PasswordPolicy = {
  level: PASSWORD.defaultLevel,
  minLength: PASSWORD.defaultMinLength,
};

export interface PasswordProblem {
  messageKey: string;
  params?: Record<string, number>;
}

const DIGIT = /\p{Nd}/u;
const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const SYMBOL = /[^\p{L}\p{Nd}\s]/u;

/**
 * What a new password lacks under a policy (spec section 5): the length between the setting's
 * minimum and 99, and the composition of its level: B none, I a digit and a letter, A a digit, an
 * upper-case and a lower-case letter and a symbol. An empty list means it passes.
 */
export function passwordProblems(
  password: string,
  policy: PasswordPolicy = DEFAULT_POLICY,
): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  const min = Math.max(policy.minLength, 1);
  if (password.length < min) problems.push({ messageKey: 'password.tooShort', params: { min } });
  if (password.length > PASSWORD.maxLength)
    problems.push({ messageKey: 'password.tooLong', params: { max: PASSWORD.maxLength } });
  if (policy.level === 'I' || policy.level === 'A') {
    if (!DIGIT.test(password)) problems.push({ messageKey: 'password.needsDigit' });
    if (!LETTER.test(password)) problems.push({ messageKey: 'password.needsLetter' });
  }
  if (policy.level === 'A') {
    if (!UPPER.test(password)) problems.push({ messageKey: 'password.needsUpper' });
    if (!LOWER.test(password)) problems.push({ messageKey: 'password.needsLower' });
    if (!SYMBOL.test(password)) problems.push({ messageKey: 'password.needsSymbol' });
  }
  return problems;
}

/** The sentence that describes a level's rules, for the forms' hints. */
export function levelHintKey(level: SecurityLevel): string {
  return `password.level.${level}`;
}
