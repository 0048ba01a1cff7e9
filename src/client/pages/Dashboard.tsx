import BusinessIcon from '@mui/icons-material/Business';
import EngineeringIcon from '@mui/icons-material/Engineering';
import PersonPinIcon from '@mui/icons-material/PersonPin';
import { Card, CardContent, CardHeader, Chip, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Title, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { MODULE_ICONS } from '../layout/moduleIcons.js';
import { useMeta } from '../providers/meta.js';
import { useConsoleTitle } from '../resources/ScreenTitle.js';
import { session } from '../session/store.js';
import { useTotal } from './useTotal.js';

function Figure({ icon, label, value, to }: { icon: ReactNode; label: string; value?: number; to: string }) {
  return (
    <Card sx={{ flex: '1 1 220px' }} component={Link} to={to} style={{ textDecoration: 'none' }}>
      <CardContent>
        <Stack direction="row" spacing={2} alignItems="center">
          {icon}
          <div>
            <Typography variant="h4" component="p" data-figure={label}>
              {value ?? '…'}
            </Typography>
            <Typography color="text.secondary">{label}</Typography>
          </div>
        </Stack>
      </CardContent>
    </Card>
  );
}

function ContractorsFigure() {
  const translate = useTranslate();
  const value = useTotal('company', { Contratista: 'S', Activo: 'S' });
  return (
    <Figure
      icon={<BusinessIcon color="primary" fontSize="large" />}
      label={translate('app.home.contractors')}
      value={value}
      to="/company"
    />
  );
}

function PeopleFigures() {
  const translate = useTranslate();
  const workers = useTotal('person', { Condicion: 'T', Inactivo: 'N' });
  const visitors = useTotal('person', { Visita: 'S', Inactivo: 'N' });
  return (
    <>
      <Figure
        icon={<EngineeringIcon color="primary" fontSize="large" />}
        label={translate('app.home.workers')}
        value={workers}
        to="/person"
      />
      <Figure
        icon={<PersonPinIcon color="primary" fontSize="large" />}
        label={translate('app.home.visitors')}
        value={visitors}
        to="/person"
      />
    </>
  );
}

/**
 * /dashboard: the figures the profile may see (its own company's, for a contractor), then the
 * screens it reaches, module by module.
 */
export default function Dashboard() {
  const { modules, resources: all, routes, version } = useMeta();
  const translate = useTranslate();
  // The screens of the profile's menu (not the ones only readable for its selects).
  const resources = all.filter((r) => routes.includes(`/${r.name}`));
  const reach = new Set(resources.map((r) => r.name));
  const current = session.profile()?.current;
  useConsoleTitle(translate('app.menu.home'));
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <Title title={translate('app.title')} />
      <Card>
        <CardHeader
          title={translate('app.home.title')}
          subheader={current ? `${current.Perfil} · ${current.Division}` : translate('app.subtitle')}
        />
        <CardContent>
          <Typography>{translate('app.home.intro')}</Typography>
          <Typography variant="caption" color="text.secondary">
            {translate('app.version', { version })}
          </Typography>
        </CardContent>
      </Card>
      <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
        {reach.has('company') && <ContractorsFigure />}
        {reach.has('person') && <PeopleFigures />}
      </Stack>
      <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
        {modules
          .filter((module) => resources.some((r) => r.module === module))
          .map((module) => {
            const Icon = MODULE_ICONS[module];
            return (
              <Card key={module} sx={{ width: 320 }}>
                <CardHeader avatar={<Icon />} title={translate(`app.modules.${module}`)} />
                <CardContent>
                  <Stack direction="row" useFlexGap flexWrap="wrap" spacing={1}>
                    {resources
                      .filter((r) => r.module === module)
                      .map((r) => (
                        <Chip
                          key={r.name}
                          label={translate(`resources.${r.name}.name`, { smart_count: 2 })}
                          component={Link}
                          to={`/${r.name}`}
                          clickable
                        />
                      ))}
                  </Stack>
                </CardContent>
              </Card>
            );
          })}
      </Stack>
    </Stack>
  );
}
