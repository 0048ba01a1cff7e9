import { MODULES } from '../../shared/modules.js';
import type { Screen } from '../../shared/screens.js';
import { FEATURES } from '../features/index.js';
import type { Registry } from '../registry.js';

/** The password of every demo account (it meets the advanced level: upper, lower, digit, symbol). */
export const DEMO_PASSWORD = 'Acredita#2026';

/** The demo client's currency, set once the currencies are loaded (the client comes first). */
export const DEMO_CURRENCY = 'PEN';

export const DEMO_CLIENT = {
  Cliente: 'MINERA ANDINA DEL SUR S.A.A.',
  IdPais: 'PE',
  Correo: 'mesadeayuda@minandes.com.pe',
  Activo: 'S',
};

export const DEMO_DIVISIONS = [
  {
    Division: 'UNIDAD MINERA SAN GABRIEL',
    IdPais: 'PE',
    Direccion: 'DISTRITO DE ICHUÑA, GENERAL SÁNCHEZ CERRO, MOQUEGUA',
    Activo: 'S',
  },
  {
    Division: 'PROYECTO CORDILLERA NORTE',
    IdPais: 'PE',
    Direccion: 'DISTRITO DE SAN MARCOS, HUARI, ÁNCASH',
    Activo: 'S',
  },
];

export const DEMO_SETTINGS = {
  standard: {
    Descripcion: 'POLÍTICA ESTÁNDAR',
    NivelSeguridadClave: 'A',
    LongitudClave: 8,
    CaducaClave: 'S',
    PeriodoCaducidadDias: 90,
    CambiarPrimeraClave: 'S',
    NumeroIntentos: 5,
    MinutosDesbloqueo: 15,
    DiasInactivacion: 90,
    PorDefecto: 'S',
    DobleAutenticacion: 'N',
    NotificarPor: 'C',
    AutenticadorApp: 'O',
    SegundosInactividad: 400,
    Activo: 'S',
  },
  doubleByMail: {
    Descripcion: 'DOBLE AUTENTICACIÓN POR CORREO',
    NivelSeguridadClave: 'A',
    LongitudClave: 10,
    CaducaClave: 'S',
    PeriodoCaducidadDias: 60,
    CambiarPrimeraClave: 'S',
    NumeroIntentos: 3,
    MinutosDesbloqueo: 30,
    DiasInactivacion: 60,
    PorDefecto: 'N',
    DobleAutenticacion: 'S',
    NotificarPor: 'C',
    AutenticadorApp: 'O',
    SegundosInactividad: 400,
    Activo: 'S',
  },
} as const;

export const DEMO_ROLES = [
  { IdRolAcreditacion: 'CPAAUT', Descripcion: 'AUTORIZADOR DE ACREDITACIÓN', Activo: 'S' },
  { IdRolAcreditacion: 'CPASOL', Descripcion: 'SOLICITANTE DE ACREDITACIÓN', Activo: 'S' },
  { IdRolAcreditacion: 'CPAADM', Descripcion: 'ADMINISTRADOR DE ACREDITACIÓN', Activo: 'S' },
];

/**
 * The demo profiles, with their data-protection settings (DatosSalud, DatosAntecedentes): the
 * administrator and the contractor's requester (who collects its workers' data) read both; the
 * authoriser reads criminal records (the security check), the identification office health data
 * (the blood type on the badge); the site's services read neither.
 */
export const DEMO_PROFILES = {
  admin: {
    Perfil: 'ADMINISTRADOR DEL SISTEMA',
    Descripcion: 'CONFIGURA LOS DATOS DE REFERENCIA Y LA SEGURIDAD',
    DatosSalud: 'S',
    DatosAntecedentes: 'S',
    characteristic: 'ADM',
  },
  requester: {
    Perfil: 'SOLICITANTE CONTRATISTA',
    Descripcion: 'SOLICITA LA ACREDITACIÓN DEL PERSONAL DE SU COMPAÑÍA',
    DatosSalud: 'S',
    DatosAntecedentes: 'S',
    characteristic: 'SOL',
  },
  authoriser: {
    Perfil: 'AUTORIZADOR DE ACREDITACIÓN',
    Descripcion: 'EVALÚA Y APRUEBA LAS SOLICITUDES DE ACREDITACIÓN',
    DatosSalud: 'N',
    DatosAntecedentes: 'S',
    characteristic: 'AUT',
  },
  /** The identification office: issues, reissues and prints the accredited people's badges. */
  identification: {
    Perfil: 'OFICINA DE IDENTIFICACIÓN',
    Descripcion: 'EMITE E IMPRIME LOS FOTOCHECKS DEL PERSONAL ACREDITADO',
    DatosSalud: 'S',
    DatosAntecedentes: 'N',
    characteristic: undefined,
  },
  /** The hotel administrator (spec section 1): runs the camps whose administrator the user is. */
  hotel: {
    Perfil: 'ADMINISTRADOR DE HOTEL',
    Descripcion: 'ADMINISTRA LAS RESERVAS Y EL ALOJAMIENTO DE SUS CAMPAMENTOS',
    DatosSalud: 'N',
    DatosAntecedentes: 'N',
    characteristic: undefined,
  },
  /** The dining halls' supervisor: their live sittings, meals by hand and voids, the consumption report, their set-up. */
  dining: {
    Perfil: 'SUPERVISOR DE COMEDORES',
    Descripcion: 'SUPERVISA LOS COMEDORES, SUS CONSUMOS Y SU CONFIGURACIÓN',
    DatosSalud: 'N',
    DatosAntecedentes: 'N',
    characteristic: undefined,
  },
  /** The attendance supervisor: people's months, justifications, the period's grid and the payroll's closing. */
  attendance: {
    Perfil: 'SUPERVISOR DE ASISTENCIA',
    Descripcion: 'SUPERVISA LA ASISTENCIA, JUSTIFICA Y CIERRA LOS PERIODOS DE PLANILLA',
    DatosSalud: 'N',
    DatosAntecedentes: 'N',
    characteristic: undefined,
  },
  /** The site's trainer: the induction courses, their sessions, attendance, results and report. */
  induction: {
    Perfil: 'INSTRUCTOR DE INDUCCIONES',
    Descripcion: 'PROGRAMA LAS SESIONES DE INDUCCIÓN, TOMA ASISTENCIA Y REGISTRA LOS RESULTADOS',
    DatosSalud: 'N',
    DatosAntecedentes: 'N',
    characteristic: undefined,
  },
  /** The site's transport coordinator: routes, buses, trips, change days' manifests, the live board. */
  transport: {
    Perfil: 'COORDINADOR DE TRANSPORTE',
    Descripcion: 'PROGRAMA LOS VIAJES, ARMA LOS MANIFIESTOS Y CONTROLA EL EMBARQUE DEL PERSONAL',
    DatosSalud: 'N',
    DatosAntecedentes: 'N',
    characteristic: undefined,
  },
} as const;

/** The dining halls' set-up their supervisor keeps. */
const DINING_SETUP = [
  'dining-type',
  'dining-room',
  'dining-service',
  'dining-group',
  'dining-group-schedule',
  'dining-cost-assignment',
  'cost-category',
  'person-cost-category',
];

/** The camps' set-up the hotel administrator reads. */
const HOTEL_SCREENS = ['camp', 'hotel-module', 'room', 'bed', 'room-type', 'bed-type', 'camp-profile'];

/** The screens the contractors' own profiles reach (the requester writes people). */
const CONTRACTOR_SCREENS = ['company', 'contract', 'person'];

const MODULE_ICONS: Record<string, string> = {
  system: 'Settings',
  security: 'AdminPanelSettings',
  administration: 'Business',
  access: 'MeetingRoom',
  attendance: 'AccessTime',
  identification: 'Badge',
  dining: 'Restaurant',
  hotel: 'Hotel',
  accreditation: 'VerifiedUser',
  induction: 'School',
  transport: 'DirectionsBus',
};

export interface MenuSeed {
  IdMenu: string;
  IdMenuPadre?: string;
  Modulo: string;
  Ruta?: string;
  Orden: number;
  Tag: string;
  Icono?: string;
  Color?: string;
  IdAplicacion: string;
  Activo: 'S';
  resource?: string;
  /** A workflow screen's route (not an entity's). */
  route?: string;
}

/** Icons of the menu sub-groups (x-group); others show a folder. */
const GROUP_ICONS: Record<string, string> = {
  contractors: 'Engineering',
  organisation: 'AccountTree',
  personnel: 'EventNote',
  fleet: 'DirectionsCar',
  accessCatalogues: 'ListAlt',
  accessSites: 'Place',
  accessManagement: 'HowToReg',
  accreditationSetup: 'ListAlt',
  demobilisation: 'PersonRemove',
  renewal: 'Autorenew',
  contracts: 'EventNote',
  mobilisation: 'Engineering',
  approvals: 'HowToReg',
  queries: 'ManageSearch',
  reports: 'Insights',
  integration: 'Webhook',
};

/** Two digits per menu level: 1 → "01". */
const pair = (n: number) => String(n).padStart(2, '0');

/** A module's first-level menu id: 10, 20, … 90 for the first nine, then 91, 92, … (two digits a level). */
export const moduleMenuId = (index: number) => pair(index < 9 ? (index + 1) * 10 : 82 + index);

/**
 * The demo menu: one group per module with its screens, in the modules' order (10, 20, … as
 * first-level ids); screens that name an x-group sit one level deeper, under a sub-group placed
 * where its first screen would be.
 */
export function demoMenu(registry: Registry): MenuSeed[] {
  const items: MenuSeed[] = [];
  MODULES.forEach((module, index) => {
    const entities = registry.entities.filter((e) => e.module === module && !e.hidden);
    if (!entities.length) return;
    const group = moduleMenuId(index);
    items.push({
      IdMenu: group,
      Modulo: module,
      Orden: (index + 1) * 10,
      Tag: `app.modules.${module}`,
      Icono: MODULE_ICONS[module],
      Color: '#0D3B66',
      IdAplicacion: 'AP03',
      Activo: 'S',
    });
    let next = 1;
    const subGroups = new Map<string, { id: string; next: number }>();
    for (const entity of entities) {
      let parent = group;
      let id: string;
      if (entity.group) {
        let sub = subGroups.get(entity.group);
        if (!sub) {
          sub = { id: `${group}${pair(next++)}`, next: 1 };
          subGroups.set(entity.group, sub);
          items.push({
            IdMenu: sub.id,
            IdMenuPadre: group,
            Modulo: module,
            Orden: entity.order,
            Tag: `app.menu.groups.${entity.group}`,
            Icono: GROUP_ICONS[entity.group] ?? 'Folder',
            IdAplicacion: 'AP03',
            Activo: 'S',
          });
        }
        parent = sub.id;
        id = `${sub.id}${pair(sub.next++)}`;
      } else {
        id = `${group}${pair(next++)}`;
      }
      items.push({
        IdMenu: id,
        IdMenuPadre: parent,
        Modulo: module,
        Ruta: `/${entity.name}`,
        Orden: entity.order,
        Tag: `resources.${entity.name}.name`,
        Icono: 'Label',
        IdAplicacion: 'AP03',
        Activo: 'S',
        resource: entity.name,
      });
    }
    // The module's own screens (not an entity's), after the entities of their sub-group (or the module's).
    for (const { group: name, route, tag, icon } of MODULE_SCREENS[module] ?? []) {
      const sub = name ? subGroups.get(name) : { id: group, next: next++ };
      if (!sub) continue;
      items.push({
        IdMenu: `${sub.id}${pair(sub.next++)}`,
        IdMenuPadre: sub.id,
        Modulo: module,
        Ruta: route,
        Orden: 1000 + sub.next,
        Tag: tag,
        Icono: icon,
        IdAplicacion: 'AP03',
        Activo: 'S',
        route,
      });
    }
  });
  // The accreditation workflow's screens, in two sub-groups of the accreditation module.
  const accreditation = moduleMenuId(MODULES.indexOf('accreditation'));
  let next = items.filter((i) => i.IdMenuPadre === accreditation).length + 1;
  for (const [group, screens] of Object.entries(WORKFLOW_SCREENS)) {
    const id = `${accreditation}${pair(next++)}`;
    items.push({
      IdMenu: id,
      IdMenuPadre: accreditation,
      Modulo: 'accreditation',
      Orden: next,
      Tag: `app.menu.groups.${group}`,
      Icono: GROUP_ICONS[group] ?? 'Folder',
      IdAplicacion: 'AP03',
      Activo: 'S',
    });
    screens.forEach(({ route, tag, icon }, i) => {
      items.push({
        IdMenu: `${id}${pair(i + 1)}`,
        IdMenuPadre: id,
        Modulo: 'accreditation',
        Ruta: route,
        Orden: i + 1,
        Tag: tag,
        Icono: icon,
        IdAplicacion: 'AP03',
        Activo: 'S',
        route,
      });
    });
  }
  // Parents before children, for the references.
  return items.sort((a, b) => a.IdMenu.length - b.IdMenu.length || a.IdMenu.localeCompare(b.IdMenu));
}

/**
 * Screens of a module that are no entity's (src/shared/screens.ts), by the feature that declares
 * them, whose name is its module's: after the module's entities, or in one of its sub-groups.
 */
const MODULE_SCREENS: Partial<Record<string, readonly Screen[]>> = Object.fromEntries(
  FEATURES.flatMap((f) => (f.screens ? [[f.name, f.screens]] : [])),
);

/** The requester's and the authoriser's screens of a request type for workers and vehicles only. */
function workerAndVehicleScreens(area: string) {
  return [
    { route: `/${area}/solicitante/persona`, tag: 'app.menu.items.requestWorkers', icon: 'Engineering' },
    { route: `/${area}/solicitante/vehiculo`, tag: 'app.menu.items.requestVehicles', icon: 'DirectionsCar' },
    { route: `/${area}/autorizador/persona`, tag: 'app.menu.items.approveWorkers', icon: 'HowToReg' },
    { route: `/${area}/autorizador/vehiculo`, tag: 'app.menu.items.approveVehicles', icon: 'DirectionsCar' },
  ];
}

/** The accreditation workflow's screens (spec section 2): the requester's and the authoriser's, by kind. */
export const WORKFLOW_SCREENS = {
  mobilisation: [
    { route: '/movilizacion/solicitante/persona', tag: 'app.menu.items.requestWorkers', icon: 'Engineering' },
    {
      route: '/movilizacion/solicitante/vehiculo',
      tag: 'app.menu.items.requestVehicles',
      icon: 'DirectionsCar',
    },
    { route: '/movilizacion/solicitante/visita', tag: 'app.menu.items.requestVisits', icon: 'Badge' },
    { route: '/movilizacion/solicitante/empresa', tag: 'app.menu.items.requestCompany', icon: 'Business' },
    { route: '/movilizacion/solicitante/masiva', tag: 'app.menu.items.requestBulk', icon: 'ListAlt' },
  ],
  approvals: [
    { route: '/movilizacion/autorizador/persona', tag: 'app.menu.items.approveWorkers', icon: 'HowToReg' },
    {
      route: '/movilizacion/autorizador/vehiculo',
      tag: 'app.menu.items.approveVehicles',
      icon: 'DirectionsCar',
    },
    { route: '/movilizacion/autorizador/visita', tag: 'app.menu.items.approveVisits', icon: 'Badge' },
    { route: '/movilizacion/autorizador/empresa', tag: 'app.menu.items.approveCompanies', icon: 'Business' },
  ],
  demobilisation: workerAndVehicleScreens('desmovilizacion'),
  renewal: [
    ...workerAndVehicleScreens('requisito'),
    { route: '/requisito/solicitante/visita', tag: 'app.menu.items.requestVisits', icon: 'Badge' },
    { route: '/requisito/autorizador/visita', tag: 'app.menu.items.approveVisits', icon: 'Badge' },
    { route: '/requisito/solicitante/empresa', tag: 'app.menu.items.requestCompany', icon: 'Business' },
    { route: '/requisito/autorizador/empresa', tag: 'app.menu.items.approveCompanies', icon: 'Business' },
  ],
  contracts: workerAndVehicleScreens('contrato'),
  /** The queries a client runs the site with (/consultas): the requester's company, the client's division. */
  queries: [
    { route: '/consultas/movilizaciones', tag: 'app.menu.items.queryMobilisations', icon: 'ManageSearch' },
    {
      route: '/consultas/desmovilizaciones',
      tag: 'app.menu.items.queryDemobilisations',
      icon: 'PersonRemove',
    },
    { route: '/consultas/estado', tag: 'app.menu.items.queryStatus', icon: 'FactCheck' },
  ],
  /** The client's reports (/reporte): how fast its authorisers answer. */
  reports: [{ route: '/reporte/eficiencia', tag: 'app.menu.items.approvalEfficiency', icon: 'Insights' }],
};

/** The client's reports, which the administrator and the authoriser reach. */
const REPORT_SCREEN = /^\/reporte\//;

/** The query screens, which the administrator, the requester and the authoriser reach. */
const QUERY_SCREEN = /^\/consultas\//;

/** The modules' own screens (the security office's), which the administrator reaches. */
const MODULE_ROUTES = new Set(
  Object.values(MODULE_SCREENS).flatMap((screens) => (screens ?? []).map((s) => s.route)),
);

/** Where each side's workflow screens live (mobilisation, demobilisation, requirement update, contracts). */
const SIDE_ROUTE = {
  requester: /^\/(movilizacion|desmovilizacion|requisito|contrato)\/solicitante\//,
  authoriser: /^\/(movilizacion|desmovilizacion|requisito|contrato)\/autorizador\//,
};

/**
 * Which screens each demo profile gets: every entity's for the administrator; the contractors'
 * for the others, with the requester's or the authoriser's workflow screens.
 */
export const DEMO_GRANTS: Record<
  keyof typeof DEMO_PROFILES,
  (item: { resource?: string; route?: string }) => 'write' | 'read' | undefined
> = {
  admin: ({ resource, route }) =>
    resource || (route && (MODULE_ROUTES.has(route) || QUERY_SCREEN.test(route) || REPORT_SCREEN.test(route)))
      ? 'write'
      : undefined,
  requester: ({ resource, route }) => {
    if (route)
      return SIDE_ROUTE.requester.test(route) ||
        QUERY_SCREEN.test(route) ||
        route === '/hotel/reservas' ||
        route === '/induccion/reservas' ||
        route === '/transporte/asientos' ||
        route === '/comedor/consumos'
        ? 'write'
        : undefined;
    if (resource === 'person' || resource === 'vehicle') return 'write';
    return resource && [...CONTRACTOR_SCREENS, 'accreditation'].includes(resource) ? 'read' : undefined;
  },
  authoriser: ({ resource, route }) => {
    if (route)
      return SIDE_ROUTE.authoriser.test(route) || QUERY_SCREEN.test(route) || REPORT_SCREEN.test(route)
        ? 'write'
        : undefined;
    return resource && [...CONTRACTOR_SCREENS, 'accreditation'].includes(resource) ? 'read' : undefined;
  },
  identification: ({ resource, route }) => {
    if (route) return route.startsWith('/identificacion/') ? 'write' : undefined;
    if (resource === 'credential') return 'write';
    return resource && ['person', 'company', 'credential-type', 'identification-reason'].includes(resource)
      ? 'read'
      : undefined;
  },
  /** The lodging screens, the camps' set-up to read, room service to keep. */
  hotel: ({ resource, route }) => {
    if (route) return route.startsWith('/hotel/') ? 'write' : undefined;
    if (resource === 'room-service') return 'write';
    return resource && [...HOTEL_SCREENS, 'person', 'company'].includes(resource) ? 'read' : undefined;
  },
  attendance: ({ resource, route }) => {
    if (route) return route.startsWith('/asistencia/') ? 'write' : undefined;
    if (resource && ['person-justification', 'schedule-assignment'].includes(resource)) return 'write';
    return resource &&
      [
        'person',
        'company',
        'division',
        'justification',
        'payroll',
        'schedule-type',
        'attendance-config',
      ].includes(resource)
      ? 'read'
      : undefined;
  },
  /** The sessions and report; the courses and their questions to keep; the records to read. */
  induction: ({ resource, route }) => {
    if (route) return route === '/induccion/sesiones' || route === '/induccion/reporte' ? 'write' : undefined;
    if (resource && ['course', 'course-question', 'training-session'].includes(resource)) return 'write';
    return resource &&
      ['induction-record', 'person', 'company', 'zone', 'door', 'requirement'].includes(resource)
      ? 'read'
      : undefined;
  },
  /** The trips, board and report screens; routes, stops, buses and trips to keep; the fleet and people to read. */
  transport: ({ resource, route }) => {
    if (route)
      return route.startsWith('/transporte/') && route !== '/transporte/asientos' ? 'write' : undefined;
    if (resource && ['transport-route', 'transport-stop', 'transport-bus', 'trip'].includes(resource))
      return 'write';
    return resource &&
      ['person', 'company', 'vehicle', 'driving-licence', 'schedule-type', 'ubigeo'].includes(resource)
      ? 'read'
      : undefined;
  },
  dining: ({ resource, route }) => {
    if (route) return route.startsWith('/comedor/') ? 'write' : undefined;
    if (resource && DINING_SETUP.includes(resource)) return 'write';
    return resource && ['person', 'company', 'position-type', 'equipment'].includes(resource)
      ? 'read'
      : undefined;
  },
};

export interface DemoUser {
  IdUsuario: string;
  Nombre: string;
  Apellido: string;
  Correo: string;
  Telefono: string;
  Administrador: 'S' | 'N';
  Contratista: 'S' | 'N';
  /** The user's own data-protection setting for health data, over the profile's (data-classes.ts). */
  DatosSalud?: 'S' | 'N';
  setting: keyof typeof DEMO_SETTINGS;
  /** Profile, division (index in DEMO_DIVISIONS), company (alias) and accreditation role. */
  assignments: Array<{
    profile: keyof typeof DEMO_PROFILES;
    division: number;
    company?: string;
    role?: string;
    default?: boolean;
  }>;
}

export const DEMO_USERS: DemoUser[] = [
  {
    IdUsuario: 'ADMIN',
    Nombre: 'PATRICIA',
    Apellido: 'SALAZAR VEGA',
    Correo: 'admin@minandes.com.pe',
    Telefono: '987654321',
    Administrador: 'S',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'admin', division: 0, role: 'CPAADM', default: true },
      { profile: 'admin', division: 1, role: 'CPAADM' },
    ],
  },
  {
    IdUsuario: 'SOLICITANTE',
    Nombre: 'RICARDO',
    Apellido: 'HUAMÁN TORRES',
    Correo: 'solicitante@sermipac.com.pe',
    Telefono: '951753852',
    Administrador: 'N',
    Contratista: 'S',
    setting: 'standard',
    assignments: [
      { profile: 'requester', division: 0, company: 'SERMIPAC', role: 'CPASOL', default: true },
      { profile: 'requester', division: 1, company: 'SERMIPAC', role: 'CPASOL' },
    ],
  },
  {
    IdUsuario: 'AUTORIZADOR',
    Nombre: 'JORGE LUIS',
    Apellido: 'CHÁVEZ NINA',
    Correo: 'autorizador@minandes.com.pe',
    Telefono: '963852741',
    Administrador: 'N',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'authoriser', division: 0, role: 'CPAAUT', default: true },
      { profile: 'authoriser', division: 1, role: 'CPAAUT' },
    ],
  },
  {
    IdUsuario: 'SUPERVISOR',
    Nombre: 'CARMEN ROSA',
    Apellido: 'FLORES QUISPE',
    Correo: 'supervisor@minandes.com.pe',
    Telefono: '912345678',
    Administrador: 'N',
    Contratista: 'N',
    // Approves the occupational-health requirements: reads health data, which the profile does not.
    DatosSalud: 'S',
    setting: 'doubleByMail',
    assignments: [{ profile: 'authoriser', division: 0, role: 'CPAAUT', default: true }],
  },
  {
    IdUsuario: 'IDENTIFICACION',
    Nombre: 'LUCÍA',
    Apellido: 'MAMANI CCAMA',
    Correo: 'identificacion@minandes.com.pe',
    Telefono: '956123478',
    Administrador: 'N',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'identification', division: 0, default: true },
      { profile: 'identification', division: 1 },
    ],
  },
  {
    IdUsuario: 'HOTELERO',
    Nombre: 'WILBER',
    Apellido: 'CONDORI APAZA',
    Correo: 'hoteleria@minandes.com.pe',
    Telefono: '974185263',
    Administrador: 'N',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'hotel', division: 0, default: true },
      { profile: 'hotel', division: 1 },
    ],
  },
  {
    IdUsuario: 'COMEDOR',
    Nombre: 'ROSA ELENA',
    Apellido: 'QUISPE HUAYTA',
    Correo: 'comedores@minandes.com.pe',
    Telefono: '963852741',
    Administrador: 'N',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'dining', division: 0, default: true },
      { profile: 'dining', division: 1 },
    ],
  },
  {
    IdUsuario: 'ASISTENCIA',
    Nombre: 'JORGE LUIS',
    Apellido: 'MAMANI CCAMA',
    Correo: 'asistencia@minandes.com.pe',
    Telefono: '952741863',
    Administrador: 'N',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'attendance', division: 0, default: true },
      { profile: 'attendance', division: 1 },
    ],
  },
  {
    IdUsuario: 'INDUCCION',
    Nombre: 'MARÍA ELENA',
    Apellido: 'TICONA QUISPE',
    Correo: 'induccion@minandes.com.pe',
    Telefono: '958147236',
    Administrador: 'N',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'induction', division: 0, default: true },
      { profile: 'induction', division: 1 },
    ],
  },
  {
    IdUsuario: 'TRANSPORTE',
    Nombre: 'CARLOS ALBERTO',
    Apellido: 'CONDORI APAZA',
    Correo: 'transporte@minandes.com.pe',
    Telefono: '957362814',
    Administrador: 'N',
    Contratista: 'N',
    setting: 'standard',
    assignments: [
      { profile: 'transport', division: 0, default: true },
      { profile: 'transport', division: 1 },
    ],
  },
];

export const DEMO_CONTRACTS = [
  {
    NumeroContrato: 'CT-2026-001',
    // The client's users who administer it: operator 1 (holder) and 2 (alternate).
    operators: ['AUTORIZADOR', 'SUPERVISOR'],
    company: 'SERMIPAC',
    division: 0,
    Asunto: 'MANTENIMIENTO DE EQUIPOS DE ACARREO Y CARGUÍO',
    FechaInicio: '2026-01-01',
    FechaFin: '2027-12-31',
    Dotacion: 120,
    Vehiculos: 'S',
  },
  {
    NumeroContrato: 'CT-2026-002',
    operators: ['AUTORIZADOR'],
    company: 'TRANSALTI',
    division: 0,
    Asunto: 'TRANSPORTE DE PERSONAL ENTRE AREQUIPA Y LA UNIDAD',
    FechaInicio: '2026-02-01',
    FechaFin: '2027-01-31',
    Dotacion: 45,
    Vehiculos: 'S',
  },
  {
    NumeroContrato: 'CT-2026-003',
    operators: ['SUPERVISOR', 'AUTORIZADOR'],
    company: 'PERVOSUR',
    division: 0,
    Asunto: 'PERFORACIÓN Y VOLADURA EN TAJO ABIERTO',
    FechaInicio: '2026-03-15',
    FechaFin: '2028-03-14',
    Dotacion: 80,
    Vehiculos: 'N',
  },
  {
    NumeroContrato: 'CT-2026-004',
    operators: ['AUTORIZADOR', 'SUPERVISOR'],
    company: 'CCB',
    division: 1,
    Asunto: 'CONSTRUCCIÓN DE LA PLANTA CONCENTRADORA',
    FechaInicio: '2026-04-01',
    FechaFin: '2028-09-30',
    Dotacion: 300,
    // Its endowment applies by organisational unit (construction 250, safety 50).
    TipoDotacion: 'U',
    Vehiculos: 'S',
  },
  {
    NumeroContrato: 'CT-2026-005',
    operators: ['HOTELERO', 'COMEDOR'],
    company: 'ALCAMIN',
    division: 1,
    Asunto: 'ALIMENTACIÓN Y HOTELERÍA DEL CAMPAMENTO',
    FechaInicio: '2026-04-01',
    FechaFin: '2027-03-31',
    Dotacion: 60,
    Vehiculos: 'N',
  },
  {
    NumeroContrato: 'CT-2026-006',
    operators: ['AUTORIZADOR'],
    company: 'SERMIPAC',
    division: 1,
    Asunto: 'MONTAJE ELECTROMECÁNICO DE FAJAS TRANSPORTADORAS',
    FechaInicio: '2026-05-01',
    FechaFin: '2027-10-31',
    Dotacion: 95,
    Vehiculos: 'S',
  },
];
