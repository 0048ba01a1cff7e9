import type { ThemeOptions } from '@mui/material/styles';
import { BREAKPOINTS } from '../shared/constants.js';

/**
 * The product's colours and breakpoints, shared by the sign-in page and the console. Error and
 * warning colours are darker than MUI's so their text (and white text on them) stays readable
 * (WCAG AA contrast).
 */
export const baseTheme: ThemeOptions = {
  palette: {
    primary: { main: '#0d3b66' },
    secondary: { main: '#a14a0e' },
    error: { main: '#c62828' },
    warning: { main: '#a34d00' },
    background: { default: '#f4f6f8' },
  },
  breakpoints: { values: { xs: 0, ...BREAKPOINTS } },
  typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif' },
};
