import type { Language } from '../../../shared/constants.js';
import { authorityDeadline, type PrivacyLaw } from '../../../shared/privacy-terms.js';
import type { Notifier } from '../../auth/notifier.js';
import { writeAudit } from '../../crud/audit.js';
import type { HookMap, Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { t } from '../../i18n.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { textPdf } from '../../services/pdf.js';

/** The incident's flags of the data classes it reached, by class. */
const REACHED: Record<string, string> = {
  AfectaIdentificacion: 'identity',
  AfectaContacto: 'contact',
  AfectaSalud: 'health',
  AfectaAntecedentes: 'criminal',
  AfectaBiometrico: 'biometric',
  AfectaUbicacion: 'location',
  AfectaFinanciero: 'financial',
};

/** The authority's deadline, worked out by the server from the detection and the law. */
export function incidentHooks(): HookMap {
  return {
    'security-incident': {
      beforeWrite: async ({ data, set }) => {
        set.FechaLimiteAutoridad = authorityDeadline(data.Pais as PrivacyLaw, String(data.FechaDeteccion));
      },
    },
  };
}

/** What a notice of an incident is made with: the incident as its page reads it (its people attached). */
export interface NoticeContext {
  db: Db;
  registry: Registry;
  principal: Principal;
  incident: Row;
  language: Language;
  now: number;
}

/** What the incident reached: its classes in words, and its people with their e-mails. */
async function reach({ db, registry, incident, language }: NoticeContext) {
  const classes = Object.entries(REACHED)
    .filter(([flag]) => incident[flag] === 'S')
    .map(([, dataClass]) => t(language, `enums.dataClass.${dataClass}`));
  const ids = (incident.PersonasAfectadas as number[] | undefined) ?? [];
  const people = ids.length
    ? ((await db
        .selectFrom(registry.require('person').table)
        .select(['IdPersona', 'Apellido', 'Nombre', 'Email'])
        .where('IdPersona', 'in', ids)
        .orderBy('IdPersona')
        .execute()) as Array<{ IdPersona: number; Apellido: string; Nombre: string; Email: string | null }>)
    : [];
  return { classes, people };
}

/** Records when a notice went (the incident notified), audited, in the caller's transaction. */
async function recordNotice({ db, registry, principal, incident, now }: NoticeContext, field: string) {
  const entity = registry.require('security-incident');
  const change = { [field]: new Date(now).toISOString(), Estado: 'N' };
  await db
    .updateTable(entity.table)
    .set(change)
    .where('IdIncidente', '=', incident.IdIncidente as number)
    .execute();
  await writeAudit(db, registry, entity, 'U', principal, incident.IdIncidente, incident, {
    ...incident,
    ...change,
  });
}

/**
 * The notice to the authority (Peru's Autoridad Nacional de Protección de Datos Personales, Chile's
 * Agencia de Protección de Datos Personales): who the controller is, what happened and when, the
 * classes and number of people reached, what was done; as a PDF, its sending recorded.
 */
export async function authorityNotice(ctx: NoticeContext): Promise<{ pdf: Buffer; name: string }> {
  const { db, registry, incident, language } = ctx;
  const { classes, people } = await reach(ctx);
  const client = (await db
    .selectFrom(registry.require('client').table)
    .select('Cliente')
    .where('IdCliente', '=', incident.IdCliente as number)
    .executeTakeFirst()) as { Cliente: string } | undefined;
  const say = (key: string) => t(language, `privacy.incident.notice.${key}`);
  const pdf = textPdf(say('title'), [
    say(incident.Pais === 'CL' ? 'authorityCL' : 'authorityPE'),
    '',
    `${say('controller')}: ${client?.Cliente ?? ''}`,
    `${say('incident')}: ${incident.Titulo}`,
    `${say('detected')}: ${String(incident.FechaDeteccion).slice(0, 16).replace('T', ' ')} UTC`,
    `${say('classes')}: ${classes.join(', ') || '—'}`,
    `${say('people')}: ${people.length}`,
    '',
    `# ${say('what')}`,
    String(incident.Descripcion ?? ''),
    '',
    `# ${say('measures')}`,
    String(incident.Medidas ?? '—'),
  ]);
  await recordNotice(ctx, 'FechaAvisoAutoridad');
  return { pdf, name: `${say('fileName')}-${incident.IdIncidente}.pdf` };
}

/** Tells each person reached who has an e-mail, through the outbox; says who could not be told. */
export async function tellPeople(
  ctx: NoticeContext,
  notifier: Notifier,
): Promise<{ told: number; withoutEmail: number }> {
  const { db, principal, incident, language } = ctx;
  const { classes, people } = await reach(ctx);
  const reached = people.filter((person) => person.Email);
  for (const person of reached)
    await notifier.send(
      {
        clientId: incident.IdCliente as number,
        userId: principal.userId,
        channel: 'C',
        to: person.Email as string,
        subject: t(language, 'privacy.incident.mail.subject'),
        text: t(language, 'privacy.incident.mail.text', {
          name: `${person.Nombre} ${person.Apellido}`,
          incident: String(incident.Titulo),
          classes: classes.join(', '),
          measures: String(incident.Medidas ?? '—'),
        }),
      },
      db,
    );
  await recordNotice(ctx, 'FechaAvisoPersonas');
  return { told: reached.length, withoutEmail: people.length - reached.length };
}
