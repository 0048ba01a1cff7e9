import { Box } from '@mui/material';
import { type ReactNode, useEffect, useRef } from 'react';
import { Layout as RaLayout, useLocale } from 'react-admin';
import { isLanguage, saveLanguage } from '../language.js';
import { RELOAD_DELAY_MS } from '../session/http.js';
import Breadcrumb from '../shell/Breadcrumb.js';
import Footer from '../shell/Footer.js';
import Header from '../shell/Header.js';
import SessionGuard from '../shell/SessionGuard.js';
import SideMenu from '../shell/SideMenu.js';

/** The shell of spec section 2 around every signed-in screen: header, menu, breadcrumb, footer, lock. */
export default function Layout({ children }: { children: ReactNode }) {
  const locale = useLocale();
  const first = useRef(locale);
  // The page says which language it is in; a change of language reloads after 400 ms (spec section 4).
  useEffect(() => {
    document.documentElement.lang = locale;
    if (locale !== first.current) {
      if (isLanguage(locale)) saveLanguage(locale);
      const timer = setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
      return () => clearTimeout(timer);
    }
  }, [locale]);
  return (
    // The content may be narrower than what it holds: wide tables scroll in their own box, the
    // page never grows past the screen.
    <RaLayout menu={SideMenu} appBar={Header} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 'calc(100vh - 64px)' }}>
        <Breadcrumb />
        <Box sx={{ flex: 1 }}>{children}</Box>
        <Footer />
      </Box>
      <SessionGuard />
    </RaLayout>
  );
}
