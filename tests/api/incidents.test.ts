import { describe, expect, it } from 'vitest';
import { mailboxes } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

describe.each(DIALECTS)('a security incident over personal data on %s', (dialect) => {
  let people: Json[];
  const w = world(dialect, {
    users: { admin: 'ADMIN', authoriser: 'AUTORIZADOR' },
    ready: async (w) => {
      people = (await w
        .db()
        .selectFrom(w.table('person'))
        .select(['IdPersona', 'Email'])
        .where('Email', 'is not', null)
        .orderBy('IdPersona')
        .limit(2)
        .execute()) as Json[];
      // A third, whom the product cannot write to.
      const third = (await w
        .db()
        .selectFrom(w.table('person'))
        .select('IdPersona')
        .where(
          'IdPersona',
          'not in',
          people.map((p) => p.IdPersona),
        )
        .orderBy('IdPersona')
        .executeTakeFirstOrThrow()) as Json;
      await w
        .db()
        .updateTable(w.table('person'))
        .set({ Email: null } as never)
        .where('IdPersona', '=', third.IdPersona)
        .execute();
      people.push({ IdPersona: third.IdPersona, Email: null });
    },
  });
  let incident: Json;

  it('works out when the authority must be told, from the detection and the law', async () => {
    const res = await w.as('admin', 'POST', '/api/rest/security-incident', {
      Titulo: 'Correo con fichas médicas enviado a un destinatario equivocado',
      FechaDeteccion: '2026-11-28T14:30:00.000Z',
      Descripcion: 'Un analista envió por error el archivo de aptitudes médicas de una cuadrilla.',
      Pais: 'PE',
      Estado: 'A',
      AfectaSalud: 'S',
      AfectaIdentificacion: 'S',
      PersonasAfectadas: people.map((p) => p.IdPersona),
      Medidas: 'Se pidió al destinatario borrar el correo y se revocó el enlace.',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    incident = res.body;
    expect(incident.FechaLimiteAutoridad).toBe('2026-11-30T14:30:00.000Z');
    const {
      id,
      FechaLimiteAutoridad: _l,
      IdCliente: _c,
      IdUsuarioCreacion: _u,
      FechaCreacion: _f,
      IdUsuarioModificacion: _m,
      FechaModificacion: _fm,
      ...fields
    } = incident;
    const chile = await w.as('admin', 'PUT', `/api/rest/security-incident/${id}`, {
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null)),
      Pais: 'CL',
    });
    expect(chile.status, JSON.stringify(chile.body)).toBe(200);
    expect(chile.body.FechaLimiteAutoridad).toBe('2026-12-01T14:30:00.000Z');
  });

  it('makes the notice to the authority, naming the classes and how many people it reached, and records it', async () => {
    const res = await w.as('admin', 'POST', `/api/privacidad/incidentes/${incident.id}/aviso-autoridad`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const pdf = Buffer.from(res.body.result.fileBase64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdf.toString('latin1');
    expect(text).toContain('Agencia de Protecci');
    expect(text).toContain(`People reached: ${people.length}`);
    expect(text).toContain('Health');
    const stored = (await w
      .db()
      .selectFrom(w.table('security-incident'))
      .selectAll()
      .where('IdIncidente', '=', incident.id)
      .executeTakeFirstOrThrow()) as Json;
    expect(stored.Estado).toBe('N');
    expect(stored.FechaAvisoAutoridad).toBeTruthy();
  });

  it('tells each person reached who has an e-mail, and says how many have none', async () => {
    const before = (mailboxes.get(w.app) ?? []).length;
    const res = await w.as('admin', 'POST', `/api/privacidad/incidentes/${incident.id}/aviso-personas`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual({ told: 2, withoutEmail: 1 });
    const sent = (mailboxes.get(w.app) ?? []).slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual(
      people
        .filter((p) => p.Email)
        .map((p) => p.Email)
        .sort(),
    );
    expect(sent[0].text).toContain('Health');
    expect(await w.count('outbox', { Asunto: 'Notice of a security incident over your personal data' })).toBe(
      2,
    );
  });

  it('keeps incidents and their notices to the profiles that hold them', async () => {
    expect((await w.as('authoriser', 'GET', '/api/rest/security-incident')).status).toBe(403);
    expect(
      (await w.as('authoriser', 'POST', `/api/privacidad/incidentes/${incident.id}/aviso-personas`)).status,
    ).toBe(403);
    expect((await w.as('admin', 'POST', '/api/privacidad/incidentes/999999/aviso-autoridad')).status).toBe(
      404,
    );
  });
});
