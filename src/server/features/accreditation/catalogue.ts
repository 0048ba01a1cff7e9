import type { DatumType, EntityCode } from '../../../shared/accreditation.js';
import type { SensitiveClass } from '../../../shared/data-classes.js';
import type { Db } from '../../db/connection.js';
import { keptRead } from '../../db/kept-reads.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';

/** One datum a requirement asks for, as its profile's form and lines use it. */
export interface DatumDef {
  IdDatoEvaluar: number;
  IdRequisito: number;
  DatoEvaluar: string;
  Tipo: DatumType;
  ValorDefecto: string | null;
  Orden: number;
  DatoOpcional: 'S' | 'N';
  Aprobar: 'S' | 'N';
  AdjuntarArchivo: 'S' | 'N';
  Vencimiento: 'S' | 'N';
  choices: Array<{ IdDato: string; Dato: string }>;
}

/** A requirement of an accreditation profile, with its data. */
export interface RequirementDef {
  IdRequisito: number;
  Requisito: string;
  /** S: the requester provides it; A: an authoriser records it. */
  TipoRequisito: 'S' | 'A';
  IdTipoRequisito: number;
  TipoRequisitoDescripcion: string;
  Obligatorio: 'S' | 'N';
  VigenciaDias: number;
  Orden: number;
  /** Sensitive personal data its values and files hold (health, criminal), if any. */
  ClaseDato: SensitiveClass | null;
  data: DatumDef[];
}

export interface ProfileDef {
  IdPerfilAcreditacion: number;
  Descripcion: string;
  IdEntidad: EntityCode;
  Divisiones: number[];
  Condicion: string | null;
  MaxDiasVisita: number | null;
  requirements: RequirementDef[];
}

/**
 * An active accreditation profile of the client with its active requirements and their active
 * data, in order, and the choices of its list data. A profile of another client, another kind,
 * or not for the division is a 400 on the profile field. Read once per `keepingReads` scope.
 */
export function loadProfile(...args: Parameters<typeof readProfile>): Promise<ProfileDef> {
  const [, , clientId, profileId, expect] = args;
  return keptRead(`profile:${clientId}:${profileId}:${expect?.entity}:${expect?.divisionId}`, () =>
    readProfile(...args),
  );
}

async function readProfile(
  db: Db,
  registry: Registry,
  clientId: number,
  profileId: number,
  expect?: { entity?: EntityCode; divisionId?: number },
): Promise<ProfileDef> {
  const t = (name: string) => registry.require(name).table;
  const profile = (await db
    .selectFrom(t('accreditation-profile'))
    .selectAll()
    .where('IdPerfilAcreditacion', '=', profileId)
    .where('IdCliente', '=', clientId)
    .where('Activo', '=', 'S')
    .executeTakeFirst()) as
    | (Omit<ProfileDef, 'requirements' | 'Divisiones'> & { Activo: string })
    | undefined;
  const divisions = profile
    ? (
        (await db
          .selectFrom(
            registry.require('accreditation-profile').references.find((r) => r.field === 'Divisiones')?.many
              ?.table ?? '',
          )
          .select('Valor')
          .where('IdPerfilAcreditacion', '=', profileId)
          .execute()) as Array<{ Valor: number }>
      ).map((r) => r.Valor)
    : [];
  const unfit =
    !profile ||
    (expect?.entity !== undefined && profile.IdEntidad !== expect.entity) ||
    (expect?.divisionId !== undefined && !divisions.includes(expect.divisionId));
  if (unfit || !profile)
    throw new ApiError('VALIDATION_FAILED', {
      fields: { IdPerfilAcreditacion: { messageKey: 'accreditation.refusals.profileUnfit' } },
    });
  const requirements = (await db
    .selectFrom(`${t('accreditation-profile-requirement')} as pr`)
    .innerJoin(`${t('requirement')} as r`, 'r.IdRequisito', 'pr.IdRequisito')
    .innerJoin(`${t('requirement-type')} as rt`, 'rt.IdTipoRequisito', 'r.IdTipoRequisito')
    .select([
      'r.IdRequisito',
      'r.Requisito',
      'r.TipoRequisito',
      'r.IdTipoRequisito',
      'rt.Descripcion as TipoRequisitoDescripcion',
      'pr.Obligatorio',
      'r.VigenciaDias',
      'pr.Orden',
      'r.ClaseDato',
    ])
    .where('pr.IdPerfilAcreditacion', '=', profileId)
    .where('pr.Activo', '=', 'S')
    .where('r.Activo', '=', 'S')
    .orderBy('pr.Orden')
    .orderBy('r.IdRequisito')
    .execute()) as Array<Omit<RequirementDef, 'data'>>;
  const ids = requirements.map((r) => r.IdRequisito);
  const data = ids.length
    ? ((await db
        .selectFrom(t('requirement-datum'))
        .select([
          'IdDatoEvaluar',
          'IdRequisito',
          'DatoEvaluar',
          'Tipo',
          'ValorDefecto',
          'Orden',
          'DatoOpcional',
          'Aprobar',
          'AdjuntarArchivo',
          'Vencimiento',
        ])
        .where('IdRequisito', 'in', ids)
        .where('Activo', '=', 'S')
        .orderBy('Orden')
        .orderBy('IdDatoEvaluar')
        .execute()) as Array<Omit<DatumDef, 'choices'>>)
    : [];
  const lists = data.filter((d) => d.Tipo === 'L').map((d) => d.IdDatoEvaluar);
  const items = lists.length
    ? ((await db
        .selectFrom(t('requirement-datum-item'))
        .select(['IdDatoEvaluar', 'IdDato', 'Dato'])
        .where('IdDatoEvaluar', 'in', lists)
        .where('Activo', '=', 'S')
        .orderBy('Orden')
        .execute()) as Array<{ IdDatoEvaluar: number; IdDato: string; Dato: string }>)
    : [];
  return {
    ...profile,
    Divisiones: divisions,
    requirements: requirements.map((r) => ({
      ...r,
      data: data
        .filter((d) => d.IdRequisito === r.IdRequisito)
        .map((d) => ({
          ...d,
          choices: items
            .filter((i) => i.IdDatoEvaluar === d.IdDatoEvaluar)
            .map(({ IdDato, Dato }) => ({ IdDato, Dato })),
        })),
    })),
  };
}

/** Every datum of a profile, by id. */
export function dataById(profile: ProfileDef): Map<number, { datum: DatumDef; requirement: RequirementDef }> {
  const out = new Map<number, { datum: DatumDef; requirement: RequirementDef }>();
  for (const requirement of profile.requirements)
    for (const datum of requirement.data) out.set(datum.IdDatoEvaluar, { datum, requirement });
  return out;
}
