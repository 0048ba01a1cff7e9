import { createTheme, getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { baseTheme } from '../../src/client/theme.js';

/**
 * Every state chip, alert and button of the console takes one of the theme's colours: as text on
 * the page's white or grey (an outlined chip), or as a background under its own text (a filled
 * one). Each pair must reach WCAG AA's 4.5:1 for normal text.
 */
describe('the console’s colours', () => {
  const theme = createTheme(baseTheme);
  const grounds = { paper: theme.palette.background.paper, page: theme.palette.background.default };
  it.each(['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const)(
    '%s reads at 4.5:1 or more as text on the page and under its own text',
    (name) => {
      const colour = theme.palette[name];
      for (const [ground, value] of Object.entries(grounds))
        expect(getContrastRatio(colour.main, value), `${name} on ${ground}`).toBeGreaterThanOrEqual(4.5);
      expect(getContrastRatio(colour.contrastText, colour.main), `text on ${name}`).toBeGreaterThanOrEqual(
        4.5,
      );
    },
  );
});
