import { describe, expect, it } from 'vitest';
import { languageOf, resourceName, t } from '../../src/server/i18n.js';
import { interpolate } from '../../src/shared/i18n.js';

describe('server messages', () => {
  it('picks the language from Accept-Language, Spanish by default', () => {
    expect(languageOf(undefined)).toBe('es');
    expect(languageOf('')).toBe('es');
    expect(languageOf('en-US,en;q=0.9')).toBe('en');
    expect(languageOf('fr-FR, en;q=0.5, es;q=0.8')).toBe('es');
    expect(languageOf('de')).toBe('es');
  });

  it('fills placeholders and names resources in each language', () => {
    expect(interpolate('At most %{limit} characters', { limit: 3 })).toBe('At most 3 characters');
    expect(interpolate('%{missing} stays', {})).toBe('%{missing} stays');
    expect(t('es', 'validation.maxLength', { limit: 3 })).toBe('Como máximo 3 caracteres');
    expect(resourceName('en', 'person', true)).toBe('People');
    expect(resourceName('es', 'person')).toBe('Persona');
  });
});
