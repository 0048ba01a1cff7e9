import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import TranslateIcon from '@mui/icons-material/Translate';
import { Button, IconButton, Menu, MenuItem } from '@mui/material';
import { type MouseEvent, useState } from 'react';
import { LANGUAGES, type Language } from '../../shared/constants.js';

/** Each language named in itself, as the console's language menu names them. */
export const LANGUAGE_NAMES: Record<Language, string> = { es: 'Español', en: 'English' };

/** The language menu of the sign-in page and the header; `compact` shows only its icon (phones). */
export function LanguageMenu({
  language,
  onChange,
  compact = false,
}: {
  language: Language;
  onChange: (language: Language) => void;
  compact?: boolean;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const common = {
    color: 'inherit' as const,
    'aria-haspopup': 'menu' as const,
    'aria-controls': anchor ? 'language-menu' : undefined,
    onClick: (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget),
  };
  return (
    <>
      {compact ? (
        <IconButton {...common} aria-label={LANGUAGE_NAMES[language]}>
          <TranslateIcon />
        </IconButton>
      ) : (
        <Button {...common} startIcon={<TranslateIcon />} endIcon={<ExpandMoreIcon />}>
          {LANGUAGE_NAMES[language]}
        </Button>
      )}
      <Menu id="language-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((choice) => (
          <MenuItem
            key={choice}
            selected={choice === language}
            lang={choice}
            onClick={() => {
              setAnchor(null);
              onChange(choice);
            }}
          >
            {LANGUAGE_NAMES[choice]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
