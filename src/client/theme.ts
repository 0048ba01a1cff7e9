import type { ThemeOptions } from '@mui/material/styles';
import { BREAKPOINTS } from '../shared/constants.js';

/**
 * Whether the person has asked their system for less motion (an accessibility setting of every
 * desktop and phone system, the CSS media feature prefers-reduced-motion), read when the page loads.
 */
export const prefersReducedMotion = (): boolean =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * For a person who asked for less motion: menus, dialogs, drawers and collapsing groups appear and
 * go at once instead of sliding or fading, and a pressed button shows no ripple. MUI's transitions
 * take their durations from the theme (`auto` ones from getAutoHeightDuration), so all are zero.
 */
export const stillTheme: ThemeOptions = {
  transitions: {
    create: () => 'none',
    getAutoHeightDuration: () => 0,
    duration: {
      shortest: 0,
      shorter: 0,
      short: 0,
      standard: 0,
      complex: 0,
      enteringScreen: 0,
      leavingScreen: 0,
    },
  },
  components: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
};

/**
 * The product's colours and breakpoints, shared by the sign-in page and the console. Error, warning
 * and info colours are darker than MUI's so their text (an outlined chip's, a link's) and white
 * text on them stay readable (WCAG AA contrast: MUI's info blue is 3.9:1 on white, a reserved
 * stay's chip). Motion as the person's system asks (stillTheme).
 */
export const baseTheme: ThemeOptions = {
  palette: {
    primary: { main: '#0d3b66' },
    secondary: { main: '#a14a0e' },
    error: { main: '#c62828' },
    warning: { main: '#a34d00' },
    info: { main: '#01579b' },
    success: { main: '#1b5e20' },
    background: { default: '#f4f6f8' },
  },
  breakpoints: { values: { xs: 0, ...BREAKPOINTS } },
  typography: { fontFamily: 'Roboto, "Segoe UI", Helvetica, Arial, sans-serif' },
  ...(prefersReducedMotion() ? stillTheme : {}),
};
