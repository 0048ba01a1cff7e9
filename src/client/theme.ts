import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { BREAKPOINTS } from '../shared/constants.js';

/** The console's look: the default react-admin theme in the product's colours and breakpoints. */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#0d3b66' },
    secondary: { main: '#c75b12' },
    background: { default: '#f4f6f8' },
  },
  breakpoints: { values: { xs: 0, ...BREAKPOINTS } },
  typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif' },
};
