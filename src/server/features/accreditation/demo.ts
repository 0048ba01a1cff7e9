/**
 * Demo accreditation requests in every status, spread over the last twelve months, for the demo
 * contractors' workers, vehicles and visits, each with the lines its profile asks for (values,
 * expiry dates and PDF files), its history, and for the approved ones the accreditation and the
 * requirement values they grant. Deterministic, like the rest of the demo.
 */
import type { EntityCode } from '../../../shared/accreditation.js';
import { addDays } from '../../../shared/dates.js';
import type { Db, DialectName } from '../../db/connection.js';
import { random } from '../../demo/people.js';
import type { Registry } from '../../registry.js';
import { textPdf } from '../../services/pdf.js';
import type { FileStore } from '../../storage/files.js';
import { loadProfile, type ProfileDef } from './catalogue.js';
import { recount } from './counts.js';
import { recountAttention } from './engine/attention.js';
import { keepValue } from './kinds/grant.js';
import { expectedLines, type Line } from './lines.js';

type Row = Record<string, unknown>;
const DAY = 86_400_000;

/** How a demo request ends up, by weight: mostly approved, some still in every other status. */
const OUTCOMES: Array<[string, number]> = [
  ['A', 45],
  ['P', 20],
  ['O', 12],
  ['R', 10],
  ['I', 13],
];

export async function seedDemoRequests(
  db: Db,
  dialect: DialectName,
  registry: Registry,
  files: FileStore,
  clientId: number,
  now = Date.now(),
): Promise<Record<string, number>> {
  const rnd = random(11);
  const t = (name: string) => registry.require(name).table;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const outcome = () => {
    let roll = rnd() * 100;
    for (const [status, weight] of OUTCOMES) {
      roll -= weight;
      if (roll < 0) return status;
    }
    return 'A';
  };
  const profiles = (await db
    .selectFrom(t('accreditation-profile'))
    .select(['IdPerfilAcreditacion', 'IdEntidad'])
    .where('IdCliente', '=', clientId)
    .where('Activo', '=', 'S')
    .execute()) as Array<{ IdPerfilAcreditacion: number; IdEntidad: EntityCode }>;
  const definitions = new Map<number, ProfileDef>();
  for (const p of profiles)
    definitions.set(
      p.IdPerfilAcreditacion,
      await loadProfile(db, registry, clientId, p.IdPerfilAcreditacion),
    );
  const contracts = (await db
    .selectFrom(t('contract'))
    .select(['IdContrato', 'IdDivision', 'IdCompaniaContratista', 'FechaInicio', 'FechaFin'])
    .where('IdCliente', '=', clientId)
    .where('Activo', '=', 'S')
    .execute()) as Array<{
    IdContrato: number;
    IdDivision: number;
    IdCompaniaContratista: number;
    FechaInicio: string;
    FechaFin: string;
  }>;
  const users = (await db
    .selectFrom(`${t('user-profile')} as up`)
    .select(['up.IdUsuario', 'up.IdCompania', 'up.IdDivision'])
    .where('up.IdCliente', '=', clientId)
    .where('up.IdCompania', 'is not', null)
    .execute()) as Array<{ IdUsuario: string; IdCompania: number; IdDivision: number }>;
  const approvers = (await db
    .selectFrom(t('approver'))
    .select(['IdUsuario', 'IdDivision'])
    .where('IdCliente', '=', clientId)
    .execute()) as Array<{
    IdUsuario: string;
    IdDivision: number;
  }>;
  const correctionDays = new Map(
    (
      (await db
        .selectFrom(t('requirement-type'))
        .select(['IdTipoRequisito', 'DiasCorreccion'])
        .where('IdCliente', '=', clientId)
        .execute()) as Array<{ IdTipoRequisito: number; DiasCorreccion: number | null }>
    ).map((row) => [row.IdTipoRequisito, Number(row.DiasCorreccion ?? 0)]),
  );
  const pdfs = new Map<number, string>();
  const pdfFor = async (requirement: string, id: number) => {
    if (!pdfs.has(id))
      pdfs.set(
        id,
        await files.put(textPdf(requirement, ['Documento de demostración', 'Demonstration document']), db),
      );
    return pdfs.get(id) as string;
  };
  let made = 0;
  /** What a request is filed under: a contract, or for a company's own request its division alone. */
  type Scope = {
    IdContrato: number | null;
    IdDivision: number;
    IdCompaniaContratista: number;
    FechaInicio: string;
    FechaFin: string;
  };
  type Holder = { entity: EntityCode; IdPersona?: number; IdVehiculo?: number; driver?: boolean };
  const jobs: Array<{
    contract: Scope;
    requester: string;
    approver: string;
    holder: Holder;
    fixed?: string;
    /** Approved of late and running to the contract's end (the transport contractor's buses). */
    recent?: true;
  }> = [];
  for (const contract of contracts) {
    const requester =
      users.find(
        (u) => u.IdCompania === contract.IdCompaniaContratista && u.IdDivision === contract.IdDivision,
      )?.IdUsuario ?? 'SISTEMA';
    const approver = approvers.find((a) => a.IdDivision === contract.IdDivision)?.IdUsuario ?? 'SISTEMA';
    const people = (await db
      .selectFrom(t('person'))
      .select(['IdPersona', 'IdLicenciaConducir'])
      .where('IdCompania', '=', contract.IdCompaniaContratista)
      .where('Condicion', '=', 'T')
      .orderBy('IdPersona')
      .execute()) as Array<{ IdPersona: number; IdLicenciaConducir: number | null }>;
    const vehicles = (await db
      .selectFrom(t('vehicle'))
      .select('IdVehiculo')
      .where('IdCompania', '=', contract.IdCompaniaContratista)
      .orderBy('IdVehiculo')
      .execute()) as Array<{ IdVehiculo: number }>;
    const holders: Holder[] = [
      ...people.map((p) => ({
        entity: 'T' as const,
        IdPersona: p.IdPersona,
        driver: p.IdLicenciaConducir !== null,
      })),
      ...vehicles.map((v) => ({ entity: 'V' as const, IdVehiculo: v.IdVehiculo })),
      { entity: 'P' as const },
      { entity: 'P' as const },
    ];
    for (const holder of holders) jobs.push({ contract, requester, approver, holder });
  }
  // Each contractor's own accreditation in the division of its contracts (IdEntidad E), one in
  // each status: SERMIPAC accredited in the south and rejected in the north (its requester files
  // again there), the others pending, observed, accredited but suspended (its policy lapsed) and
  // incomplete.
  const COMPANY_STATUSES: Record<string, string> = {
    'SERMIPAC|0': 'A',
    'SERMIPAC|1': 'R',
    'TRANSALTI|0': 'P',
    'PERVOSUR|0': 'O',
    'CCB|1': 'S',
    'ALCAMIN|1': 'I',
  };
  const aliases = new Map(
    (
      (await db
        .selectFrom(t('company'))
        .select(['IdCompania', 'Alias'])
        .where('IdCliente', '=', clientId)
        .execute()) as Array<{ IdCompania: number; Alias: string | null }>
    ).map((c) => [c.IdCompania, c.Alias ?? '']),
  );
  const divisionIds = [...new Set(contracts.map((c) => c.IdDivision))].sort((a, b) => a - b);
  const companyScopes = new Map<string, Scope>();
  for (const contract of contracts)
    companyScopes.set(
      `${aliases.get(contract.IdCompaniaContratista)}|${divisionIds.indexOf(contract.IdDivision)}`,
      {
        IdContrato: null,
        IdDivision: contract.IdDivision,
        IdCompaniaContratista: contract.IdCompaniaContratista,
        FechaInicio: '2000-01-01',
        FechaFin: '2099-12-31',
      },
    );
  for (const [key, fixed] of Object.entries(COMPANY_STATUSES)) {
    const scope = companyScopes.get(key);
    if (!scope) continue;
    jobs.push({
      contract: scope,
      requester:
        users.find((u) => u.IdCompania === scope.IdCompaniaContratista && u.IdDivision === scope.IdDivision)
          ?.IdUsuario ?? 'SISTEMA',
      approver: approvers.find((a) => a.IdDivision === scope.IdDivision)?.IdUsuario ?? 'SISTEMA',
      holder: { entity: 'E' },
      fixed,
    });
  }
  // The transport contractor's buses (20 seats or more), accredited a month ago for their contract.
  for (const contract of contracts) {
    const buses = (await db
      .selectFrom(t('vehicle'))
      .innerJoin(t('company'), `${t('company')}.IdCompania`, `${t('vehicle')}.IdCompania`)
      .select('IdVehiculo')
      .where(`${t('vehicle')}.IdCompania`, '=', contract.IdCompaniaContratista)
      .where('Alias', '=', 'TRANSALTI')
      .where('NumeroPasajeros', '>=', 20)
      .orderBy('IdVehiculo')
      .execute()) as Array<{ IdVehiculo: number }>;
    const requester =
      users.find(
        (u) => u.IdCompania === contract.IdCompaniaContratista && u.IdDivision === contract.IdDivision,
      )?.IdUsuario ?? 'SISTEMA';
    const approver = approvers.find((a) => a.IdDivision === contract.IdDivision)?.IdUsuario ?? 'SISTEMA';
    for (const bus of buses)
      jobs.push({
        contract,
        requester,
        approver,
        holder: { entity: 'V', IdVehiculo: bus.IdVehiculo },
        fixed: 'A',
        recent: true,
      });
  }
  for (const { contract, requester, approver, holder, fixed, recent } of jobs) {
    const candidates = profiles.filter((p) => p.IdEntidad === holder.entity);
    if (!candidates.length) continue;
    const profile = definitions.get(
      (holder.entity === 'T'
        ? (candidates.find((c) =>
            definitions
              .get(c.IdPerfilAcreditacion)
              ?.Descripcion.includes(holder.driver ? 'CONDUCTOR' : 'TRABAJADOR'),
          ) ?? candidates[0])
        : candidates[0]
      ).IdPerfilAcreditacion,
    ) as ProfileDef;
    // A suspended company was approved; its policy's lapse is written below.
    const status = fixed === 'S' ? 'A' : (fixed ?? outcome());
    // Made some day of the last twelve months; the start a few days later, within the contract.
    const made_ = recent ? now - 40 * DAY : now - Math.floor(rnd() * 360) * DAY - Math.floor(rnd() * DAY);
    const requested = new Date(made_).toISOString();
    let start = addDays(requested.slice(0, 10), recent ? 2 : 2 + Math.floor(rnd() * 10));
    if (start < contract.FechaInicio) start = contract.FechaInicio;
    let end = recent
      ? contract.FechaFin
      : holder.entity === 'P'
        ? addDays(start, 1 + Math.floor(rnd() * 5))
        : holder.entity === 'E'
          ? addDays(start, 365)
          : addDays(start, 90 + Math.floor(rnd() * 270));
    if (end > contract.FechaFin) end = contract.FechaFin;
    if (start > end) continue;
    const sent = status === 'I' ? null : new Date(made_ + 3_600_000).toISOString();
    const answered = ['A', 'R', 'O'].includes(status)
      ? new Date(made_ + (1 + Math.floor(rnd() * 4)) * DAY).toISOString()
      : null;
    const visit = holder.entity === 'P';
    const [header] = (await db
      .insertInto(t('request'))
      .values({
        IdCliente: clientId,
        IdDivision: contract.IdDivision,
        IdCompania: contract.IdCompaniaContratista,
        TipoSolicitud: 'M',
        IdEntidad: holder.entity,
        IdContrato: contract.IdContrato,
        IdPerfilAcreditacion: profile.IdPerfilAcreditacion,
        IdPersona: holder.IdPersona ?? null,
        IdVehiculo: holder.IdVehiculo ?? null,
        MotivoVisita: visit
          ? pick(['AUDITORÍA DE SEGURIDAD', 'VISITA COMERCIAL', 'INSPECCIÓN DE EQUIPOS', 'REUNIÓN DE OBRA'])
          : null,
        NumeroVisitantes: visit ? 2 : null,
        FechaInicio: start,
        FechaFin: end,
        FechaSolicitud: requested,
        EstadoAprobacion: status,
        SolicitudCompleta: status === 'I' ? 'N' : 'S',
        FechaEnvio: sent,
        FechaAtencion: answered,
        IndisciplinaRechazo: 'N',
        MotivoRechazo: status === 'R' ? 'DOCUMENTO ILEGIBLE' : null,
        ObservacionAutorizador: status === 'O' ? 'LA CONSTANCIA NO CORRESPONDE AL PERIODO' : null,
        IdUsuarioCreacion: requester,
        FechaCreacion: requested,
      })
      .returning('IdSolicitud')
      .execute()) as Array<{ IdSolicitud: number }>;
    const id = header.IdSolicitud;
    const visitors: Array<number | null> = [];
    if (visit)
      for (const [i, [Apellido, Nombre]] of [
        ['QUISPE MAMANI', 'ROSA ELENA'],
        ['TORRES VEGA', 'MANUEL JESÚS'],
      ].entries()) {
        const [row] = (await db
          .insertInto(t('visit-person'))
          .values({
            IdCliente: clientId,
            IdSolicitud: id,
            IdTipoDocumento: (
              (await db
                .selectFrom(t('document-type'))
                .select('IdTipoDocumento')
                .where('Alias', '=', 'DNI')
                .executeTakeFirst()) as {
                IdTipoDocumento: number;
              }
            ).IdTipoDocumento,
            Documento: String(40_000_000 + id * 10 + i),
            Apellido,
            Nombre,
            IdUsuarioCreacion: requester,
            FechaCreacion: requested,
          })
          .returning('IdVisitaPersona')
          .execute()) as Array<{ IdVisitaPersona: number }>;
        visitors.push(row.IdVisitaPersona);
      }
    const lines: Line[] = expectedLines(profile, visit ? visitors : [null]);
    const dataOf = new Map(
      profile.requirements.flatMap((r) => r.data.map((d) => [d.IdDatoEvaluar, { d, r }] as const)),
    );
    let observedOne = false;
    for (const line of lines) {
      const { d, r } = dataOf.get(line.IdDatoEvaluar) as typeof dataOf extends Map<number, infer V>
        ? V
        : never;
      const filled = status !== 'I' || rnd() < 0.6;
      if (r.TipoRequisito === 'S' && filled) {
        if (d.Tipo === 'F') line.Valor = addDays(end, 30 + Math.floor(rnd() * 300));
        else if (d.Tipo === 'L') line.Valor = d.choices[0]?.IdDato ?? null;
        else if (d.Tipo === 'B') line.Valor = 'S';
        else if (d.Tipo === 'N') line.Valor = String(1 + Math.floor(rnd() * 3));
        else if (d.AdjuntarArchivo !== 'S')
          line.Valor = `${r.Requisito.slice(0, 3)}-${100_000 + Math.floor(rnd() * 899_999)}`;
        if (d.Vencimiento === 'S') line.FechaVencimiento = line.Valor;
        if (d.AdjuntarArchivo === 'S') {
          line.ClaveArchivo = await pdfFor(r.Requisito, r.IdRequisito);
          line.NombreArchivo = `${r.Requisito.toLowerCase().replaceAll(' ', '-')}.pdf`;
          line.TipoArchivo = 'application/pdf';
        }
      }
      if (line.EstadoAprobacion !== null) {
        const evaluated =
          status === 'A' || (status === 'R' && d.AdjuntarArchivo === 'S') || (status === 'O' && rnd() < 0.7);
        if (evaluated) {
          line.EstadoAprobacion =
            status === 'A'
              ? 'A'
              : status === 'R'
                ? 'R'
                : line.TipoRequisito === 'S' && rnd() < 0.5
                  ? 'O'
                  : 'A';
          // An observed request has at least one observed line (the first the requester records).
          if (status === 'O' && line.TipoRequisito === 'S' && !observedOne) line.EstadoAprobacion = 'O';
          if (line.EstadoAprobacion === 'O') observedOne = true;
          if (line.EstadoAprobacion === 'O' || line.EstadoAprobacion === 'R')
            line.Observacion = 'DOCUMENTO ILEGIBLE O VENCIDO';
          const days = correctionDays.get(r.IdTipoRequisito) ?? 0;
          if (line.EstadoAprobacion === 'O' && answered && days > 0)
            line.FechaLimiteCorreccion = addDays(answered.slice(0, 10), days);
          if (r.TipoRequisito === 'A' && line.EstadoAprobacion === 'A')
            line.Valor = d.choices[0]?.IdDato ?? 'APROBADO';
          line.IdUsuarioAprobacion = approver;
          line.FechaAprobacion = answered;
        }
      }
      await db
        .insertInto(t('request-detail'))
        .values({
          ...line,
          IdSolicitud: id,
          IdCliente: clientId,
          IdUsuarioCreacion: requester,
          FechaCreacion: requested,
        })
        .execute();
    }
    const history = [['CREATE', null, 'I', requester, requested]];
    if (sent) history.push(['SEND', 'I', 'P', requester, sent]);
    if (answered)
      history.push([
        status === 'A' ? 'APPROVE' : status === 'R' ? 'REJECT' : 'OBSERVE',
        'P',
        status,
        approver,
        answered,
      ]);
    for (const [Evento, EstadoAnterior, EstadoNuevo, IdUsuario, Fecha] of history)
      await db
        .insertInto(t('request-history'))
        .values({
          IdCliente: clientId,
          IdSolicitud: id,
          Fecha,
          IdUsuario,
          Evento,
          EstadoAnterior,
          EstadoNuevo,
          IdUsuarioCreacion: IdUsuario,
          FechaCreacion: Fecha,
        })
        .execute();
    if (status === 'A' && !visit && answered) {
      const company = holder.entity === 'E';
      const column = company ? 'IdCompania' : holder.IdPersona ? 'IdPersona' : 'IdVehiculo';
      const value = (
        company ? contract.IdCompaniaContratista : (holder.IdPersona ?? holder.IdVehiculo)
      ) as number;
      const existing = await db
        .selectFrom(t('accreditation'))
        .select('IdAcreditacion')
        .where(column, '=', value)
        .$if(company, (qb) => qb.where('IdEntidad', '=', 'E').where('IdDivision', '=', contract.IdDivision))
        .$if(!company, (qb) => qb.where('IdContrato', '=', contract.IdContrato))
        .executeTakeFirst();
      const values: Row = {
        FechaInicio: start,
        FechaFin: end,
        Estado: fixed === 'S' ? 'S' : 'A',
        IdSolicitud: id,
        FechaAprobacion: answered,
      };
      if (existing)
        await db
          .updateTable(t('accreditation'))
          .set(values)
          .where('IdAcreditacion', '=', (existing as Row).IdAcreditacion as number)
          .execute();
      else
        await db
          .insertInto(t('accreditation'))
          .values({
            ...values,
            IdCliente: clientId,
            IdDivision: contract.IdDivision,
            IdCompania: contract.IdCompaniaContratista,
            IdEntidad: holder.entity,
            [column]: value,
            IdContrato: contract.IdContrato,
            IdUsuarioCreacion: approver,
            FechaCreacion: answered,
          })
          .execute();
      for (const line of lines.filter((l) => l.Valor || l.ClaveArchivo)) {
        const dated = lines.find((l) => l.IdRequisito === line.IdRequisito && l.FechaVencimiento);
        // The suspended company's policy lapsed last week.
        const expiry =
          fixed === 'S' && dated
            ? addDays(new Date(now).toISOString().slice(0, 10), -7)
            : (dated?.FechaVencimiento ?? null);
        await keepValue(db, t('accredited-requirement'), {
          IdCliente: clientId,
          IdEntidad: holder.entity,
          holder: [column, value],
          line,
          FechaVencimiento: expiry,
          IdSolicitud: id,
          at: answered,
          userId: approver,
        });
      }
    }
    made++;
  }
  await recount({ db, dialect }, registry, { clientId });
  await recountAttention({ db, dialect }, registry, clientId);
  const counts: Record<string, number> = { request: made };
  for (const name of [
    'request-detail',
    'visit-person',
    'request-history',
    'accreditation',
    'accredited-requirement',
  ]) {
    const { n } = (await db
      .selectFrom(t(name))
      .select((eb) => eb.fn.countAll().as('n'))
      .where('IdCliente', '=', clientId)
      .executeTakeFirstOrThrow()) as { n: number | string };
    counts[name] = Number(n);
  }
  return counts;
}
