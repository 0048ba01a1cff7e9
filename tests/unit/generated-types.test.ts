import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, generateTypes } from '../../scripts/gen-types.js';

describe('generated TypeScript types', () => {
  it('match the schemas (run `npm run gen` after changing a schema)', async () => {
    const expected = await generateTypes();
    expect(
      readFileSync(GENERATED_FILE, 'utf8') === expected,
      'src/shared/generated/entities.ts is stale: npm run gen',
    ).toBe(true);
  });
});
