/**
 * The areas' own screens (those that are no entity's list), each declared once: its route, its
 * menu entry (label key, icon, the sub-group it sits in) and what it reads beyond its own calls.
 * The console routes each to its component (the feature's `routes`), the server grants its reads
 * to the profiles whose menu holds it (the feature's `screens`), and the demo puts it in the menu.
 */
export interface Screen {
  /** Its path in the console, and the menu row's route. */
  route: string;
  /** The menu entry's label (a key of locales/*.json). */
  tag: string;
  /** The menu entry's icon (a name of @mui/icons-material). */
  icon: string;
  /** The module's sub-group the entry sits in, after that sub-group's entities (the module's own group when not given). */
  group?: string;
  /** What the screen reads besides its own calls: these resources, read-only, for whoever holds it. */
  reads?: readonly string[];
}

const screens = <T extends Record<string, Screen>>(table: T): Readonly<T> => table;

export const IDENTIFICATION_SCREENS = screens({
  management: {
    route: '/identificacion/gestion',
    tag: 'app.menu.items.identificationManagement',
    icon: 'Badge',
    reads: ['credential-type', 'identification-reason', 'person'],
  },
});

export const ATTENDANCE_SCREENS = screens({
  people: { route: '/asistencia/personas', tag: 'app.menu.items.peopleAttendance', icon: 'CalendarMonth' },
  period: { route: '/asistencia/periodo', tag: 'app.menu.items.periodAttendance', icon: 'GridOn' },
  closing: { route: '/asistencia/cierres', tag: 'app.menu.items.payrollClosing', icon: 'LockClock' },
});

export const DINING_SCREENS = screens({
  management: { route: '/comedor/gestion', tag: 'app.menu.items.diningManagement', icon: 'Restaurant' },
  report: { route: '/comedor/consumos', tag: 'app.menu.items.consumptionReport', icon: 'Assessment' },
});

export const HOTEL_SCREENS = screens({
  dashboard: { route: '/hotel/tablero', tag: 'app.menu.items.lodgingDashboard', icon: 'Dashboard' },
  availability: { route: '/hotel/disponibilidad', tag: 'app.menu.items.bedAvailability', icon: 'Bed' },
  reservations: { route: '/hotel/reservas', tag: 'app.menu.items.reservations', icon: 'EventAvailable' },
  massReservation: {
    route: '/hotel/reserva-masiva',
    tag: 'app.menu.items.massReservation',
    icon: 'Groups',
    reads: ['contract'],
  },
  reports: { route: '/hotel/reportes', tag: 'app.menu.items.lodgingReports', icon: 'Assessment' },
});

/** The security office's evacuation roll call and requirement report sit with the markings (they need the marking grant). */
export const ACCESS_SCREENS = screens({
  rollCall: {
    group: 'accessManagement',
    route: '/acceso/evacuacion',
    tag: 'app.menu.items.rollCall',
    icon: 'Campaign',
  },
  requirementReport: {
    group: 'accessManagement',
    route: '/acceso/requisitos-vencidos',
    tag: 'app.menu.items.requirementReport',
    icon: 'GppBad',
  },
});

/** The trainer's sessions and their report; a contractor's requester books its workers and follows their inductions. */
export const INDUCTION_SCREENS = screens({
  sessions: {
    route: '/induccion/sesiones',
    tag: 'app.menu.items.trainingSessions',
    icon: 'CalendarMonth',
    reads: ['course', 'person', 'company', 'user'],
  },
  bookings: {
    route: '/induccion/reservas',
    tag: 'app.menu.items.trainingBookings',
    icon: 'EventAvailable',
    reads: ['course', 'training-session', 'induction-record', 'contract'],
  },
  report: { route: '/induccion/reporte', tag: 'app.menu.items.inductionReport', icon: 'Assessment' },
});

export const TRANSPORT_SCREENS = screens({
  trips: {
    route: '/transporte/viajes',
    tag: 'app.menu.items.transportTrips',
    icon: 'DirectionsBus',
    reads: ['transport-route', 'transport-bus', 'person', 'company', 'vehicle', 'schedule-type'],
  },
  board: { route: '/transporte/tablero', tag: 'app.menu.items.transportBoard', icon: 'DepartureBoard' },
  seats: {
    route: '/transporte/asientos',
    tag: 'app.menu.items.transportSeats',
    icon: 'EventSeat',
    reads: ['transport-route'],
  },
  report: { route: '/transporte/reporte', tag: 'app.menu.items.transportReport', icon: 'Assessment' },
});
