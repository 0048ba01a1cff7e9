import { Box, Checkbox, FormControlLabel, List, ListItem, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Traveller } from './api.js';

/** One person's line: the tick, the name, and under it the document and company (or why not). */
function PersonLine({
  person,
  ticked,
  why,
  onTick,
}: {
  person: Traveller;
  ticked: boolean;
  why?: string;
  onTick(on: boolean): void;
}) {
  return (
    <ListItem disablePadding data-person={person.Documento} sx={{ px: 2 }}>
      <FormControlLabel
        disabled={Boolean(why)}
        sx={{ m: 0, width: '100%' }}
        control={<Checkbox checked={ticked} onChange={(event) => onTick(event.target.checked)} />}
        label={
          <span>
            <Typography component="span" variant="body2" sx={{ display: 'block' }}>
              {person.Persona}
            </Typography>
            <Typography component="span" variant="caption" color="text.secondary" data-detail>
              {[person.Documento, person.Compania, why].filter(Boolean).join(' · ')}
            </Typography>
          </span>
        }
      />
    </ListItem>
  );
}

/**
 * People to tick, each with its document and company; those that cannot be ticked say why. A first
 * line ticks (or unticks) every one that can be.
 */
export function TickList({
  people,
  ticked,
  blocked = new Map(),
  onChange,
  testId,
}: {
  people: Traveller[];
  ticked: ReadonlySet<number>;
  /** Why a person cannot be ticked, by person. */
  blocked?: ReadonlyMap<number, string>;
  onChange(ticked: Set<number>): void;
  testId?: string;
}) {
  const translate = useTranslate();
  const open = people.filter((p) => !blocked.has(p.IdPersona));
  const all = open.length > 0 && open.every((p) => ticked.has(p.IdPersona));
  const set = (ids: number[], on: boolean) => {
    const next = new Set(ticked);
    for (const id of ids) on ? next.add(id) : next.delete(id);
    onChange(next);
  };
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid={testId}>
      <FormControlLabel
        sx={{ px: 2, py: 0.5, m: 0, width: '100%', borderBottom: 1, borderColor: 'divider' }}
        control={
          <Checkbox
            checked={all}
            indeterminate={!all && open.some((p) => ticked.has(p.IdPersona))}
            disabled={open.length === 0}
            onChange={(event) =>
              set(
                open.map((p) => p.IdPersona),
                event.target.checked,
              )
            }
            data-testid="tick-all"
          />
        }
        label={translate('transport.screens.people.tickAll', { smart_count: open.length })}
      />
      <List dense disablePadding sx={{ maxHeight: { xs: 'none', sm: 320 }, overflowY: 'auto' }}>
        {people.map((p) => (
          <PersonLine
            key={p.IdPersona}
            person={p}
            ticked={ticked.has(p.IdPersona)}
            why={blocked.get(p.IdPersona)}
            onTick={(on) => set([p.IdPersona], on)}
          />
        ))}
      </List>
    </Box>
  );
}
