import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { baseTheme } from './theme.js';

type Owner = { 'aria-label'?: string };

/**
 * The console's look: react-admin's default theme in the product's colours and breakpoints. A
 * checkbox given an aria-label (a list's row selector) names its input, where assistive
 * technology looks, rather than the span around it.
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  ...(baseTheme as RaThemeOptions),
  components: {
    ...defaultTheme.components,
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: () => ({ 'aria-label': undefined }),
          input: (owner: Owner) => (owner['aria-label'] ? { 'aria-label': owner['aria-label'] } : {}),
        },
      },
    },
  } as RaThemeOptions['components'],
};
