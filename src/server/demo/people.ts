import { rutCheckDigit } from '../../shared/check-digits.js';
import type { Persona } from '../../shared/generated/entities.js';

export type PersonSeed = Omit<Persona, 'IdPersona' | 'Edad'>;

/** Ids the generated people point at. */
export interface PeopleContext {
  dniPeru: number;
  runChile: number;
  companies: Array<{ id: number; country: 'PE' | 'CH' }>;
  bloodTypes: number[];
  civilStatuses: number[];
}

const MALE = [
  'JUAN CARLOS',
  'LUIS ALBERTO',
  'JORGE',
  'MIGUEL ÁNGEL',
  'JOSÉ LUIS',
  'CARLOS',
  'PEDRO',
  'VÍCTOR HUGO',
  'EDWIN',
  'RAÚL',
  'WILBER',
  'FREDDY',
  'CRISTIAN',
  'FELIPE',
  'MATÍAS',
  'SEBASTIÁN',
  'RODRIGO',
  'FRANCISCO',
];
const FEMALE = [
  'MARÍA ELENA',
  'ROSA',
  'CARMEN',
  'ANA LUCÍA',
  'LUZ MARINA',
  'PATRICIA',
  'JULIA',
  'GLADYS',
  'YESENIA',
  'MILAGROS',
  'CONSTANZA',
  'VALENTINA',
  'CAMILA',
  'FERNANDA',
  'JAVIERA',
  'CATALINA',
];
const SURNAMES_PE = [
  'QUISPE',
  'MAMANI',
  'HUAMÁN',
  'FLORES',
  'ROJAS',
  'GARCÍA',
  'TORRES',
  'CHÁVEZ',
  'RAMOS',
  'VARGAS',
  'MENDOZA',
  'CASTILLO',
  'CCALLO',
  'NINA',
  'PAREDES',
  'SALAZAR',
  'CONDORI',
  'APAZA',
  'TICONA',
  'HUANCA',
];
const SURNAMES_CH = [
  'GONZÁLEZ',
  'MUÑOZ',
  'ROJAS',
  'DÍAZ',
  'PÉREZ',
  'SOTO',
  'CONTRERAS',
  'SILVA',
  'MARTÍNEZ',
  'SEPÚLVEDA',
  'MORALES',
  'RODRÍGUEZ',
  'LÓPEZ',
  'FUENTES',
  'HERNÁNDEZ',
  'TORRES',
  'ARAYA',
  'FLORES',
];
const PLACES_PE = [
  'AREQUIPA',
  'PUNO',
  'CUSCO',
  'LIMA',
  'MOQUEGUA',
  'TACNA',
  'HUARAZ',
  'CAJAMARCA',
  'JULIACA',
  'ABANCAY',
];
const PLACES_CH = ['ANTOFAGASTA', 'CALAMA', 'COPIAPÓ', 'LA SERENA', 'SANTIAGO', 'IQUIQUE', 'VALPARAÍSO'];
const ALLERGIES = ['PENICILINA', 'POLEN', 'MARISCOS', 'SULFAS', 'ASPIRINA'];

/** A small deterministic generator (mulberry32), so the demo and the benchmark are repeatable. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ascii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
const pad = (n: number) => String(n).padStart(2, '0');

/** `count` people spread over the companies; documents are unique for any count below a million. */
export function* generatePeople(count: number, ctx: PeopleContext, seed = 2026): Generator<PersonSeed> {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const date = (fromYear: number, toYear: number) =>
    `${fromYear + Math.floor(rnd() * (toYear - fromYear + 1))}-${pad(1 + Math.floor(rnd() * 12))}-${pad(1 + Math.floor(rnd() * 28))}`;
  for (let i = 0; i < count; i++) {
    const company = ctx.companies[i % ctx.companies.length];
    const chilean = company.country === 'CH';
    const female = rnd() < 0.22;
    const surnames = chilean ? SURNAMES_CH : SURNAMES_PE;
    const first = pick(surnames);
    const nombre = pick(female ? FEMALE : MALE);
    const apellido = `${first} ${pick(surnames)}`;
    const runBody = String(10_000_000 + ((i * 7919) % 15_000_000));
    const documento = chilean
      ? `${runBody}${rutCheckDigit(runBody)}`
      : String(40_000_000 + ((i * 7919) % 39_999_999));
    const visitor = i % 17 === 16;
    const ceased = i % 23 === 22;
    const place = pick(chilean ? PLACES_CH : PLACES_PE);
    const start = date(2023, 2026);
    yield {
      IdTipoDocumento: chilean ? ctx.runChile : ctx.dniPeru,
      Documento: documento,
      Apellido: apellido,
      Nombre: nombre,
      Sexo: female ? 'F' : 'M',
      FechaNacimiento: date(1966, 2004),
      IdPaisNacimiento: chilean ? 'CH' : 'PE',
      LugarNacimiento: place,
      IdPaisResidencia: chilean ? 'CH' : 'PE',
      LugarResidencia: place,
      Direccion: chilean
        ? `PASAJE LOS AROMOS ${100 + (i % 900)}, ${place}`
        : `JR. LIMA ${100 + (i % 900)}, ${place}`,
      IdTipoSangre: ctx.bloodTypes[i % 5 === 0 ? Math.floor(rnd() * ctx.bloodTypes.length) : 0],
      IdEstadoCivil: pick(ctx.civilStatuses),
      NumeroHijos: Math.floor(rnd() * 4),
      Alergia: i % 9 === 0 ? pick(ALLERGIES) : undefined,
      TelefonoMovil: `9${String(10_000_000 + Math.floor(rnd() * 89_999_999))}`,
      Email: `${ascii(nombre[0] + first).replace(/ /g, '')}${i}@CORREO.COM`,
      EmergenciaNombre: `${pick(female ? MALE : FEMALE)} ${pick(surnames)}`,
      EmergenciaTelefono: `9${String(10_000_000 + Math.floor(rnd() * 89_999_999))}`,
      IdCompania: company.id,
      CodigoPlanilla: `PL${String(i + 1).padStart(6, '0')}`,
      FechaInicio: start,
      FechaFin: visitor ? start : undefined,
      FechaCese: ceased ? '2026-10-31' : undefined,
      Condicion: ceased ? 'C' : visitor ? 'V' : 'T',
      Visita: visitor ? 'S' : 'N',
      ValidarRequisitosAcceso: 'S',
      Inactivo: ceased ? 'S' : 'N',
    };
  }
}
