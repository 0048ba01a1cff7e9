import {
  Box,
  Checkbox,
  Chip,
  FormControlLabel,
  LinearProgress,
  List,
  ListItem,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Candidate } from './api.js';

/** Up to this many ticked workers are named below the list; a larger crew is counted. */
const CHIPS_SHOWN = 12;

/**
 * The workers found, each with its tick; those the session would refuse (booked on the course
 * already, or holding it well beyond the session) say why and cannot be ticked. Below, the ones
 * ticked so far, searches apart, each removable.
 */
export function CandidateChecklist({
  found,
  loading,
  chosen,
  blocked,
  onChange,
}: {
  found: Candidate[] | undefined;
  loading: boolean;
  chosen: Map<number, Candidate>;
  /** Why a worker cannot be booked on this session, by person. */
  blocked: Map<number, string>;
  onChange(chosen: Map<number, Candidate>): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.booking.${key}`, options);
  const open = (found ?? []).filter((c) => !blocked.has(c.IdPersona));
  const allTicked = open.length > 0 && open.every((c) => chosen.has(c.IdPersona));
  const set = (people: Candidate[], on: boolean) => {
    const next = new Map(chosen);
    for (const c of people) {
      if (on) next.set(c.IdPersona, c);
      else next.delete(c.IdPersona);
    }
    onChange(next);
  };
  return (
    <Stack spacing={1}>
      {loading && <LinearProgress aria-label={translate('ra.page.loading')} />}
      {found && found.length === 0 && !loading && (
        <Typography color="text.secondary" data-testid="no-candidates">
          {text('noCandidates')}
        </Typography>
      )}
      {found && found.length > 0 && (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <FormControlLabel
            sx={{ px: 2, py: 0.5, m: 0, width: '100%', borderBottom: 1, borderColor: 'divider' }}
            control={
              <Checkbox
                checked={allTicked}
                indeterminate={!allTicked && open.some((c) => chosen.has(c.IdPersona))}
                disabled={open.length === 0}
                onChange={(event) => set(open, event.target.checked)}
                data-testid="tick-all"
              />
            }
            label={text('tickAll', { smart_count: open.length })}
          />
          <List dense disablePadding sx={{ maxHeight: { xs: 'none', sm: 320 }, overflowY: 'auto' }}>
            {found.map((c) => {
              const why = blocked.get(c.IdPersona);
              const ticked = chosen.has(c.IdPersona);
              return (
                <ListItem key={c.IdPersona} disablePadding data-person={c.Documento} sx={{ px: 2 }}>
                  <FormControlLabel
                    disabled={Boolean(why)}
                    sx={{ m: 0, width: '100%', alignItems: 'center' }}
                    control={
                      <Checkbox checked={ticked} onChange={(event) => set([c], event.target.checked)} />
                    }
                    label={
                      <span>
                        <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                          {c.Persona}
                        </Typography>
                        <Typography
                          component="span"
                          variant="caption"
                          color="text.secondary"
                          sx={{ display: 'block' }}
                          data-detail
                        >
                          {why ? `${c.Documento} · ${why}` : c.Documento}
                        </Typography>
                      </span>
                    }
                  />
                </ListItem>
              );
            })}
          </List>
        </Box>
      )}
      {chosen.size > 0 && (
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          flexWrap="wrap"
          alignItems="center"
          data-testid="chosen"
        >
          <Typography variant="body2">{text('chosen', { smart_count: chosen.size })}</Typography>
          {chosen.size <= CHIPS_SHOWN &&
            [...chosen.values()].map((c) => (
              <Chip key={c.IdPersona} size="small" label={c.Persona} onDelete={() => set([c], false)} />
            ))}
        </Stack>
      )}
    </Stack>
  );
}
