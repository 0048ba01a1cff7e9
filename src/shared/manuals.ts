/**
 * The user guides (docs/manuals/<guide>.<lang>.md), one per role, shared by the console (which
 * shows them as pages and links each screen's help button to its section) and the server (which
 * serves them as PDFs through SistemaArchivo/descargar).
 *
 * A guide is Markdown: a `# title`, an introduction, then `## sections {#id}` (and `###`
 * sub-sections) with numbered steps and screenshots written `![caption](shot:name)`, which name
 * docs/manuals/shots/<name>.<lang>.jpg. The browser test tests/e2e/manuals.test.ts takes every
 * screenshot from the demo data and checks every guide against this table.
 */
import type { Language } from './constants.js';

export interface GuideSection {
  /** The section's anchor: `## Title {#id}` in both languages. */
  id: string;
  /** Console paths the section explains: a path equal to one, or under it. */
  routes?: readonly string[];
  /** Menu modules whose other screens (their reference data) the section explains. */
  modules?: readonly string[];
}

export interface Guide {
  id: string;
  /** Its PDF's name, as SistemaArchivo/descargar serves it (both languages). */
  file: string;
  /** The menu paths that make it a guide of the user's (one of them in the user's menu). */
  reachedBy: readonly string[];
  sections: readonly GuideSection[];
}

const RECORDS = ['/company', '/contract', '/person', '/vehicle'];

/** The guides in the order they are offered; a user's own come first in this order. */
export const GUIDES: readonly Guide[] = [
  {
    id: 'requester',
    file: 'manual-solicitante.pdf',
    reachedBy: ['/movilizacion/solicitante', '/desmovilizacion/solicitante', '/requisito/solicitante'],
    sections: [
      { id: 'start' },
      { id: 'workers', routes: ['/movilizacion/solicitante/persona'] },
      { id: 'vehicles', routes: ['/movilizacion/solicitante/vehiculo'] },
      { id: 'visits', routes: ['/movilizacion/solicitante/visita'] },
      { id: 'company', routes: ['/movilizacion/solicitante/empresa', '/requisito/solicitante/empresa'] },
      { id: 'bulk', routes: ['/movilizacion/solicitante/masiva'] },
      { id: 'demobilisation', routes: ['/desmovilizacion/solicitante'] },
      { id: 'renewal', routes: ['/requisito/solicitante', '/contrato/solicitante'] },
      { id: 'queries', routes: ['/consultas', '/accreditation'] },
      {
        id: 'services',
        routes: ['/hotel/reservas', '/comedor/consumos', '/induccion/reservas', '/transporte/asientos'],
      },
      { id: 'records', routes: RECORDS },
    ],
  },
  {
    id: 'authoriser',
    file: 'manual-autorizador.pdf',
    reachedBy: ['/movilizacion/autorizador', '/desmovilizacion/autorizador', '/requisito/autorizador'],
    sections: [
      { id: 'start' },
      { id: 'evaluate', routes: ['/movilizacion/autorizador'] },
      { id: 'companies', routes: ['/movilizacion/autorizador/empresa', '/requisito/autorizador/empresa'] },
      { id: 'demobilisation', routes: ['/desmovilizacion/autorizador'] },
      { id: 'renewal', routes: ['/requisito/autorizador', '/contrato/autorizador'] },
      { id: 'queries', routes: ['/consultas', '/reporte/eficiencia', '/accreditation'] },
      { id: 'records', routes: RECORDS },
    ],
  },
  {
    id: 'administrator',
    file: 'manual-administrador.pdf',
    reachedBy: ['/user', '/profile'],
    sections: [
      { id: 'start' },
      {
        id: 'users',
        routes: [
          '/user',
          '/profile',
          '/user-profile',
          '/menu',
          '/menu-profile',
          '/login-setting',
          '/profile-characteristic',
          '/accreditation-role',
        ],
      },
      {
        id: 'requirements',
        routes: [
          '/requirement-datum',
          '/requirement-datum-item',
          '/accreditation-profile',
          '/accreditation-profile-requirement',
          '/approver',
          '/view-permission',
        ],
      },
      { id: 'records', routes: RECORDS },
      { id: 'access', modules: ['access'] },
      { id: 'audit', routes: ['/audit', '/outbox'] },
      {
        id: 'personal-data',
        routes: [
          '/sensitive-access',
          '/retention-rule',
          '/legal-hold',
          '/retention-run',
          '/retention-action',
        ],
      },
      {
        id: 'reference-data',
        modules: [
          'system',
          'security',
          'administration',
          'accreditation',
          'attendance',
          'identification',
          'dining',
          'hotel',
          'induction',
          'transport',
          'access',
        ],
      },
    ],
  },
  {
    id: 'identification',
    file: 'manual-identificacion.pdf',
    reachedBy: ['/identificacion/gestion'],
    sections: [
      { id: 'start' },
      { id: 'management', routes: ['/identificacion/gestion'] },
      { id: 'setup', modules: ['identification'] },
    ],
  },
  {
    id: 'camp',
    file: 'manual-campamento.pdf',
    reachedBy: ['/hotel/tablero', '/hotel/disponibilidad'],
    sections: [
      { id: 'start', routes: ['/hotel/tablero'] },
      { id: 'availability', routes: ['/hotel/disponibilidad'] },
      { id: 'reservations', routes: ['/hotel/reservas'] },
      { id: 'mass', routes: ['/hotel/reserva-masiva'] },
      { id: 'reports', routes: ['/hotel/reportes'] },
      { id: 'setup', modules: ['hotel'] },
    ],
  },
  {
    id: 'dining',
    file: 'manual-comedor.pdf',
    reachedBy: ['/comedor/gestion'],
    sections: [
      { id: 'start' },
      { id: 'management', routes: ['/comedor/gestion'] },
      { id: 'report', routes: ['/comedor/consumos'] },
      { id: 'setup', modules: ['dining'] },
    ],
  },
  {
    id: 'attendance',
    file: 'manual-asistencia.pdf',
    reachedBy: ['/asistencia/personas', '/asistencia/periodo', '/asistencia/cierres'],
    sections: [
      { id: 'start' },
      { id: 'people', routes: ['/asistencia/personas'] },
      { id: 'justifications', routes: ['/person-justification'] },
      { id: 'period', routes: ['/asistencia/periodo'] },
      { id: 'closing', routes: ['/asistencia/cierres'] },
      { id: 'setup', modules: ['attendance'] },
    ],
  },
  {
    id: 'induction',
    file: 'manual-induccion.pdf',
    reachedBy: ['/induccion/sesiones'],
    sections: [
      { id: 'start' },
      { id: 'sessions', routes: ['/induccion/sesiones'] },
      { id: 'bookings', routes: ['/induccion/reservas'] },
      { id: 'report', routes: ['/induccion/reporte'] },
      { id: 'setup', modules: ['induction'] },
    ],
  },
  {
    id: 'transport',
    file: 'manual-transporte.pdf',
    reachedBy: ['/transporte/viajes'],
    sections: [
      { id: 'start' },
      { id: 'trips', routes: ['/transporte/viajes'] },
      { id: 'board', routes: ['/transporte/tablero'] },
      { id: 'seats', routes: ['/transporte/asientos'] },
      { id: 'report', routes: ['/transporte/reporte'] },
      { id: 'setup', modules: ['transport'] },
    ],
  },
  {
    id: 'gate',
    file: 'manual-garita.pdf',
    reachedBy: ['/equipment', '/acceso/evacuacion'],
    sections: [
      { id: 'start' },
      { id: 'enrol', routes: ['/equipment'] },
      { id: 'decide' },
      { id: 'offline' },
      { id: 'roll-call', routes: ['/acceso/evacuacion'] },
    ],
  },
];

export const guideById = (id: string): Guide | undefined => GUIDES.find((g) => g.id === id);
export const guideByFile = (file: string): Guide | undefined => GUIDES.find((g) => g.file === file);

/** A path equal to `route` or under it. */
const under = (path: string, route: string) => path === route || path.startsWith(`${route}/`);

export interface MenuEntry {
  Ruta?: string | null;
  Modulo?: string | null;
}

/** The guides a user's menu reaches, in the table's order (at least the first, so none is empty). */
export function guidesFor(menu: readonly MenuEntry[]): Guide[] {
  const routes = menu.flatMap((m) => (m.Ruta ? [m.Ruta] : []));
  const reached = GUIDES.filter((g) => g.reachedBy.some((r) => routes.some((path) => under(path, r))));
  return reached.length ? reached : [GUIDES[0]];
}

export interface HelpTarget {
  guide: string;
  section: string;
}

/**
 * The section a screen's help button opens: the section of the user's guides (in their order)
 * that names the screen's path, the longest naming first; else one that explains the screen's
 * menu module; else the start of the user's first guide.
 */
export function helpTarget(pathname: string, menu: readonly MenuEntry[]): HelpTarget {
  const guides = guidesFor(menu);
  const candidates = [...guides, ...GUIDES.filter((g) => !guides.includes(g))];
  let best: (HelpTarget & { length: number }) | undefined;
  for (const guide of candidates) {
    for (const section of guide.sections)
      for (const route of section.routes ?? [])
        if (under(pathname, route) && route.length > (best?.length ?? 0))
          best = { guide: guide.id, section: section.id, length: route.length };
    if (best) return { guide: best.guide, section: best.section };
  }
  const entry = menu
    .filter((m) => m.Ruta && under(pathname, m.Ruta))
    .sort((a, b) => (b.Ruta?.length ?? 0) - (a.Ruta?.length ?? 0))[0];
  if (entry?.Modulo)
    for (const guide of candidates) {
      const section = guide.sections.find((s) => s.modules?.includes(entry.Modulo as string));
      if (section) return { guide: guide.id, section: section.id };
    }
  return { guide: guides[0].id, section: 'start' };
}

/** An anchor from a heading's words, for a heading that names none. */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The shots a guide shows: the names of its `![…](shot:name)` images, in order. */
export function shotsOf(markdown: string): string[] {
  return [...markdown.matchAll(/!\[[^\]]*\]\(shot:([a-z0-9-]+)\)/g)].map((m) => m[1]);
}

/** A shot's file under docs/manuals/shots. */
export const shotFile = (name: string, language: Language) => `${name}.${language}.jpg`;

/** The plain words of a piece of a guide (for search), accents and case folded. */
export function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
