import { Box } from '@mui/material';
import type {} from 'altcha/types/react';
import { useCallback, useEffect, useState } from 'react';
import type { Language } from '../../shared/constants.js';
import { attachWidget, challengeEnabled } from './challenge.js';

/** The widget's own code and its two languages, loaded once, after the page has shown. */
let loaded: Promise<unknown> | undefined;
const loadWidget = () => {
  loaded ??= import('altcha').then(() =>
    Promise.all([import('altcha/i18n/es-419'), import('altcha/i18n/en')]),
  );
  return loaded;
};

/**
 * The sign-in challenge as the person sees it: ALTCHA's checkbox, which solves a proof of work
 * while they type and says so (in Spanish or English, to a screen reader too). Nothing shows when
 * the server does not ask for it. The answer is taken by the sign-in calls (challenge.ts).
 */
export function ChallengeWidget({ language }: { language: Language }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let live = true;
    challengeEnabled()
      .then((on) => (on ? loadWidget().then(() => on) : on))
      .then((on) => live && setShown(on))
      .catch(() => live && setShown(false));
    return () => {
      live = false;
    };
  }, []);
  // Stable, so React hands it the element once and null once, when the step goes.
  const attach = useCallback((element: HTMLElement | null) => {
    attachWidget(element as Parameters<typeof attachWidget>[0]);
  }, []);
  if (!shown) return null;
  return (
    <Box sx={{ '--altcha-max-width': '100%' }} data-testid="sign-in-challenge">
      <altcha-widget
        ref={attach}
        language={language === 'es' ? 'es-419' : 'en'}
        name="tokenClient"
        auto="off"
        type="checkbox"
        configuration={JSON.stringify({ hideFooter: true, hideLogo: false })}
      />
    </Box>
  );
}
