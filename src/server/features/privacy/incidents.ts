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
      beforeWrite: async ({ data }) => {
        data.FechaLimiteAutoridad = authorityDeadline(data.Pais as PrivacyLaw, String(data.FechaDeteccion));
      },
      // An update writes only the writable fields: the deadline, the server's own, follows here.
      afterWrite: async ({ db, row, operation, entity }) => {
        if (operation !== 'update') return;
        const limit = authorityDeadline(row.Pais as PrivacyLaw, String(row.FechaDeteccion));
        if (limit === row.FechaLimiteAutoridad) return;
        await db
          .updateTable(entity.table)
          .set({ FechaLimiteAutoridad: limit })
          .where('IdIncidente', '=', row.IdIncidente as number)
          .execute();
        row.FechaLimiteAutoridad = limit;
      },
    },
  };
}

/** What the incident reached: its classes in words, and the people with their e-mails. */
async function reach(db: Db, registry: Registry, incident: Row, language: Language) {
  const classes = Object.entries(REACHED)
    .filter(([flag]) => incident[flag] === 'S')
    .map(([, dataClass]) => t(language, `enums.dataClass.${dataClass}`));
  const people = (await db
    .selectFrom(`${registry.require('security-incident').table}_personas_afectadas as l`)
    .innerJoin(`${registry.require('person').table} as p`, 'p.IdPersona', 'l.Valor')
    .select(['p.IdPersona', 'p.Apellido', 'p.Nombre', 'p.Email'])
    .where('l.IdIncidente', '=', incident.IdIncidente as number)
    .orderBy('p.IdPersona')
    .execute()) as Array<{ IdPersona: number; Apellido: string; Nombre: string; Email: string | null }>;
  return { classes, people };
}

/** Records when a notice went, audited, in the caller's transaction. */
async function recordNotice(
  db: Db,
  registry: Registry,
  principal: Principal,
  incident: Row,
  field: string,
  at: string,
) {
  const entity = registry.require('security-incident');
  await db
    .updateTable(entity.table)
    .set({ [field]: at, Estado: 'N' })
    .where('IdIncidente', '=', incident.IdIncidente as number)
    .execute();
  await writeAudit(db, registry, entity, 'U', principal, incident.IdIncidente, incident, {
    ...incident,
    [field]: at,
    Estado: 'N',
  });
}

/**
 * The notice to the authority (Peru's Autoridad Nacional de Protección de Datos Personales, Chile's
 * Agencia de Protección de Datos Personales): who the controller is, what happened and when, the
 * classes and number of people reached, what was done; as a PDF, its sending recorded.
 */
export async function authorityNotice(
  db: Db,
  registry: Registry,
  principal: Principal,
  incident: Row,
  language: Language,
  now: number,
): Promise<{ pdf: Buffer; name: string }> {
  const { classes, people } = await reach(db, registry, incident, language);
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
  await recordNotice(db, registry, principal, incident, 'FechaAvisoAutoridad', new Date(now).toISOString());
  return { pdf, name: `${say('fileName')}-${incident.IdIncidente}.pdf` };
}

/** Tells each person reached who has an e-mail, through the outbox; says who could not be told. */
export async function tellPeople(
  db: Db,
  registry: Registry,
  notifier: Notifier,
  principal: Principal,
  incident: Row,
  language: Language,
  now: number,
): Promise<{ told: number; withoutEmail: number }> {
  const { classes, people } = await reach(db, registry, incident, language);
  let told = 0;
  for (const person of people) {
    if (!person.Email) continue;
    await notifier.send(
      {
        clientId: incident.IdCliente as number,
        userId: principal.userId,
        channel: 'C',
        to: person.Email,
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
    told++;
  }
  await recordNotice(db, registry, principal, incident, 'FechaAvisoPersonas', new Date(now).toISOString());
  return { told, withoutEmail: people.length - told };
}
