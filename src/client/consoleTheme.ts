import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { baseTheme } from './theme.js';

type Owner = { 'aria-label'?: string; className?: string };

/** The id of the header's hidden "loading" text, in the user's language: every spinner's name. */
export const LOADING_LABEL_ID = 'app-loading-label';

/**
 * The console's look: react-admin's default theme in the product's colours and breakpoints. A
 * checkbox given an aria-label (a list's row selector) names its input, where assistive
 * technology looks, rather than the span around it; the unnamed boxes of the placeholder rows a
 * slow list shows are named by the header's "loading" text. An unselected toggle's text is the
 * secondary text colour. Every progress indicator (react-admin's own
 * included, such as a reference still loading) is named by the header's "loading" text.
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  ...(baseTheme as RaThemeOptions),
  components: {
    ...defaultTheme.components,
    ...baseTheme.components,
    // An unselected toggle's text in the secondary text colour (5.7:1 on white): MUI's own (action.active,
    // 4.6:1) leaves no margin, and a page still fading in read it below AA (the calendar's "Month").
    MuiToggleButton: { styleOverrides: { root: { color: 'rgba(0, 0, 0, 0.6)' } } },
    MuiLinearProgress: { defaultProps: { 'aria-labelledby': LOADING_LABEL_ID } },
    MuiCircularProgress: { defaultProps: { 'aria-labelledby': LOADING_LABEL_ID } },
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: () => ({ 'aria-label': undefined }),
          input: (owner: Owner) =>
            owner['aria-label']
              ? { 'aria-label': owner['aria-label'] }
              : // react-admin's placeholder rows, drawn while a slow list loads, have unnamed boxes.
                owner.className === 'select-all'
                ? { 'aria-labelledby': LOADING_LABEL_ID }
                : {},
        },
      },
    },
  } as RaThemeOptions['components'],
};
