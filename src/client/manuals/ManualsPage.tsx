import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Chip,
  InputAdornment,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Language } from '../../shared/constants.js';
import type { ParsedGuide } from '../../shared/guide-markdown.js';
import { folded, guideById, guidesFor } from '../../shared/manuals.js';
import { isLanguage } from '../language.js';
import { session } from '../session/store.js';
import { usePageTitle } from '../usePageTitle.js';
import { downloadGuide } from './download.js';
import { Block, keyed } from './GuideBody.js';
import { loadGuide } from './guides.js';

/** The words of a section, for the search: its title and its text (accents and case folded). */
const searchable = (title: string, raw: string) => folded(`${title} ${raw}`);

/**
 * The user guides inside the console (/manuales/<guide>#<section>): the guides of the user's
 * menu, one at a time, with its contents, a search over its sections and its PDF.
 */
export default function ManualsPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const language: Language = isLanguage(locale) ? locale : 'es';
  const { guide: id } = useParams();
  const { hash } = useLocation();
  const navigate = useNavigate();
  const mine = guidesFor(session.profile()?.menu ?? []);
  const guide = guideById(id ?? '') ?? undefined;
  const [parsed, setParsed] = useState<{ key: string; guide?: ParsedGuide; failed?: boolean }>();
  const [query, setQuery] = useState('');
  const [pdfFailed, setPdfFailed] = useState(false);
  const key = `${guide?.id}.${language}`;
  usePageTitle([parsed?.guide?.title ?? translate('manuals.title')], translate('app.title'));

  useEffect(() => {
    if (!guide) return;
    let live = true;
    loadGuide(guide.id, language).then(
      (g) => live && setParsed({ key, guide: g, failed: !g }),
      () => live && setParsed({ key, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [guide, language, key]);

  // The section the address names (a help button's link), once the guide is drawn.
  const shown = parsed?.key === key ? parsed.guide : undefined;
  useEffect(() => {
    if (!shown || !hash) return;
    const target = document.getElementById(`section-${decodeURIComponent(hash.slice(1))}`);
    if (!target) return;
    target.scrollIntoView();
    // The pictures above it push it down as they arrive: it is brought back once they have.
    let live = true;
    const loading = [...document.querySelectorAll<HTMLImageElement>('[data-testid="manual-page"] img')]
      .filter((img) => !img.complete)
      .map(
        (img) =>
          new Promise((done) => {
            img.addEventListener('load', done, { once: true });
            img.addEventListener('error', done, { once: true });
          }),
      );
    if (loading.length) Promise.all(loading).then(() => live && target.scrollIntoView());
    return () => {
      live = false;
    };
  }, [shown, hash]);

  const sections = useMemo(() => {
    if (!shown) return [];
    const wanted = folded(query.trim());
    return shown.sections.filter(
      (s) => !wanted || searchable(s.title, s.tokens.map((t) => t.raw).join(' ')).includes(wanted),
    );
  }, [shown, query]);

  if (!guide) return <Navigate to={`/manuales/${mine[0].id}`} replace />;
  return (
    <Box sx={{ py: 2, maxWidth: 980 }} data-testid="manual-page" data-guide={guide.id}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ mb: 2 }}
        alignItems={{ sm: 'center' }}
      >
        {mine.length > 1 && (
          <TextField
            select
            size="small"
            id="manual-guide"
            label={translate('manuals.guide')}
            value={guide.id}
            onChange={(e) => navigate(`/manuales/${e.target.value}`)}
            sx={{ minWidth: 240 }}
          >
            {mine.map((g) => (
              <MenuItem key={g.id} value={g.id}>
                {translate(`manuals.guides.${g.id}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          size="small"
          id="manual-search"
          type="search"
          label={translate('manuals.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          sx={{ flex: 1, minWidth: 0 }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button
          variant="outlined"
          startIcon={<PictureAsPdfIcon />}
          onClick={() => downloadGuide(guide.file).catch(() => setPdfFailed(true))}
          data-testid="manual-pdf"
        >
          {translate('manuals.pdf')}
        </Button>
      </Stack>
      {pdfFailed && (
        <Alert severity="info" onClose={() => setPdfFailed(false)} sx={{ mb: 2 }}>
          {translate('shell.manualFailed')}
        </Alert>
      )}
      {parsed?.key === key && parsed.failed && (
        <Alert severity="warning">{translate('manuals.loadFailed')}</Alert>
      )}
      {shown && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography variant="h5" component="h1" gutterBottom>
            {shown.title}
          </Typography>
          {!query && (
            <>
              {keyed(shown.intro).map(([key, t]) => (
                <Block key={key} token={t} language={language} />
              ))}
              <Box component="nav" aria-label={translate('manuals.contents')} sx={{ my: 2 }}>
                <Typography variant="subtitle2" gutterBottom>
                  {translate('manuals.contents')}
                </Typography>
                <Stack direction="row" flexWrap="wrap" gap={1}>
                  {shown.sections
                    .filter((s) => s.depth === 2)
                    .map((s) => (
                      <Chip
                        key={s.id}
                        label={s.title}
                        size="small"
                        component="a"
                        href={`#${s.id}`}
                        clickable
                        onClick={(e: React.MouseEvent) => {
                          e.preventDefault();
                          navigate(`/manuales/${guide.id}#${s.id}`);
                        }}
                      />
                    ))}
                </Stack>
              </Box>
            </>
          )}
          {query && (
            <Typography color="text.secondary" sx={{ mb: 1 }} data-testid="manual-results">
              {sections.length
                ? translate('manuals.results', { smart_count: sections.length })
                : translate('manuals.noResults', { query })}
            </Typography>
          )}
          {sections.map((s) => (
            <Box
              component="section"
              key={s.id}
              id={`section-${s.id}`}
              sx={{ scrollMarginTop: 80 }}
              data-section={s.id}
            >
              <Typography
                variant={s.depth === 2 ? 'h6' : 'subtitle1'}
                component={s.depth === 2 ? 'h2' : 'h3'}
                sx={{ mt: 3, mb: 1, fontWeight: 600 }}
              >
                {s.title}
              </Typography>
              {keyed(s.tokens).map(([key, t]) => (
                <Block key={key} token={t} language={language} />
              ))}
            </Box>
          ))}
        </Paper>
      )}
    </Box>
  );
}
