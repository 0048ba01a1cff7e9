import type { FastifyInstance } from 'fastify';
import {
  type FieldSetting,
  OWN_RECORD_FIELDS,
  OWN_RECORD_FORM,
  type OwnRecordField,
  ownRecordSettings,
} from '../../../shared/own-record.js';
import { changed, checkDocument, type DocumentTypeRule, type FieldRule } from '../../../shared/rules.js';
import type { FieldProblem } from '../../../shared/validation.js';
import { Accounts, type UserRow } from '../../auth/accounts.js';
import { writeAudit } from '../../crud/audit.js';
import { FIELD_RULE_RESOURCE } from '../../crud/checks.js';
import { prepare } from '../../crud/input.js';
import type { Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { beyondRights, emailHolder, UserRights } from './rights.js';

type Body = Record<string, unknown>;

/** The screen whose write access makes a user manager of the client's users. */
const USERS = 'user';

const result = (description: string) => resultResponses(description, [400, 401, 403, 404]);

/** Manages the client's users: the users screen, writable, in the profile's menu. */
function manages(principal: Principal): boolean {
  return principal.grants?.resources.get(USERS) === 'write';
}

function client(principal: Principal): number {
  if (principal.clientId === undefined) throw new ApiError('FORBIDDEN');
  return principal.clientId;
}

function payload(value: unknown): Body {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('BAD_REQUEST');
  return value as Body;
}

function invalid(fields: Record<string, FieldProblem>): ApiError {
  return new ApiError('VALIDATION_FAILED', { fields });
}

/**
 * The user-security page's record (spec section 2, /seguridad/usuarioLogin): read with its per-field
 * settings, saved by them, and the password an administrator sets for a user of the client.
 */
export default async function ownRecordRoutes(fastify: FastifyInstance): Promise<void> {
  const { registry } = fastify;
  const db = () => fastify.database.db;
  const users = registry.require(USERS);
  const tags = ['security'];

  /** The record named (the caller's own without a name), of the caller's client. */
  async function target(trx: Db, principal: Principal, named: unknown): Promise<Row> {
    const userId = String(named ?? principal.userId)
      .trim()
      .toLocaleUpperCase('es');
    // Another user's record is for those who manage users.
    if (userId !== principal.userId && !manages(principal)) throw new ApiError('FORBIDDEN');
    const row = (await trx
      .selectFrom(users.table)
      .selectAll()
      .where('IdUsuario', '=', userId)
      .where('IdCliente', '=', client(principal))
      .executeTakeFirst()) as Row | undefined;
    if (!row)
      throw new ApiError('NOT_FOUND', { messageKey: 'security.unknownUser', params: { user: userId } });
    return row;
  }

  /** The Data tab's settings for the caller: the users screen's rules, or the page's own. */
  async function settingsOf(trx: Db, principal: Principal): Promise<FieldSetting[]> {
    const manager = manages(principal);
    const rules = (await trx
      .selectFrom(registry.require(FIELD_RULE_RESOURCE).table)
      .select(['IdDato', 'Campo', 'Obligatorio', 'Modificable'])
      .where('IdCliente', '=', client(principal))
      .where('IdDato', '=', manager ? USERS : OWN_RECORD_FORM)
      .where('Activo', '=', 'S')
      .execute()) as FieldRule[];
    return ownRecordSettings({ manager, rules, schemaRequired: users.schema.required ?? [] });
  }

  /** The record, its field settings, and the password rules of its login setting (what crear checks). */
  const answer = async (row: Row, campos: FieldSetting[]) => {
    const setting = await new Accounts(db(), registry).setting(row as unknown as UserRow);
    return {
      ...Object.fromEntries(OWN_RECORD_FIELDS.map((f) => [f, row[f] ?? null])),
      IdCliente: row.IdCliente,
      esNuevoRegistro: false,
      campos,
      longitudClave: setting.LongitudClave,
      nivelSeguridadClave: setting.NivelSeguridadClave,
    };
  };

  fastify.put<{ Body: { IdUsuario?: string } }>(
    '/SeguridadusuarioLogin/obtener',
    {
      schema: {
        tags,
        summary: 'A user record of the session’s client with its per-field settings',
        description:
          'Without IdUsuario, the signed-in user. Another user’s record needs the users screen, writable. longitudClave and nivelSeguridadClave are the password rules of the user’s login setting (those SeguridadusuarioClave/crear and cambiarClave check). campos says per field whether it is required (Obligatorio) and may be changed (Modificable): by the users screen’s field rules for who manages users, otherwise by the security page’s own rules (IdDato user-login) within names, document, mail and telephone.',
        body: { type: 'object', properties: { IdCliente: field.id(), IdUsuario: field.text(100) } },
        response: result(
          'User record, longitudClave, nivelSeguridadClave and campos [{ Campo, Obligatorio, Modificable }]',
        ),
      },
    },
    async (request) => {
      const row = await target(db(), request.principal, request.body?.IdUsuario);
      return { result: await answer(row, await settingsOf(db(), request.principal)) };
    },
  );

  fastify.put(
    '/SeguridadusuarioLogin/actualizar',
    {
      schema: {
        tags,
        summary: 'Save the security page’s Data tab, by its per-field settings',
        description:
          'IdUsuario names the record (the signed-in user without it); Nombre, Apellido, IdTipoDocumento, Documento, Correo, Telefono, IdConfiguracionLogeo and Activo are the values to keep (one left out stays as it is; null or empty clears it). A field the caller may not change is refused (notModifiable), as is any other property; values are checked against the user schema. Answers the record as obtener does.',
        body: { type: 'object' },
        response: result('User record and campos'),
      },
    },
    async (request) => {
      const principal = request.principal;
      const input = payload(request.body);
      const known = new Set<string>([...OWN_RECORD_FIELDS, 'IdCliente']);
      const unknown = Object.keys(input).filter((key) => !known.has(key));
      if (unknown.length)
        throw invalid(
          Object.fromEntries(unknown.map((key) => [key, { messageKey: 'validation.unknownField' }])),
        );
      const row = await db()
        .transaction()
        .execute(async (trx) => {
          const existing = await target(trx, principal, input.IdUsuario);
          if (!(await new UserRights(trx, registry, principal).mayManage(String(existing.IdUsuario))))
            throw beyondRights('holdsMore', USERS, existing.IdUsuario, input);
          const settings = await settingsOf(trx, principal);
          const sent = OWN_RECORD_FIELDS.filter((f) => f !== 'IdUsuario' && Object.hasOwn(input, f));
          // The record as it would be, checked against the user schema as a whole.
          const merged: Row = {};
          for (const f of users.writable)
            if (existing[f] !== null && existing[f] !== undefined) merged[f] = existing[f];
          for (const f of sent) merged[f] = input[f];
          const data = prepare(users, merged);
          const problems: Record<string, FieldProblem> = {};
          const setting = (f: OwnRecordField) => settings.find((s) => s.Campo === f);
          for (const f of sent)
            if (setting(f)?.Modificable !== 'S' && changed(existing[f], data[f]))
              problems[f] = { messageKey: 'validation.notModifiable' };
          for (const s of settings)
            if (s.Obligatorio === 'S' && s.Modificable === 'S' && data[s.Campo] === undefined)
              problems[s.Campo] ??= { messageKey: 'validation.required' };
          if (existing.IdUsuario === principal.userId && existing.Activo === 'S' && data.Activo === 'N')
            problems.Activo ??= { messageKey: 'security.ownInactive' };
          if (
            data.Activo !== 'N' &&
            changed(existing.Correo, data.Correo) &&
            (await emailHolder(trx, registry, existing.IdCliente, data.Correo, existing.IdUsuario))
          )
            problems.Correo ??= { messageKey: 'security.emailTaken' };
          if (Object.keys(problems).length) throw invalid(problems);
          await checkReferences(trx, principal, existing, data, problems);
          if (Object.keys(problems).length) throw invalid(problems);

          const values = Object.fromEntries(sent.map((f) => [f, data[f] ?? null]));
          const id = existing.IdUsuario as string;
          const updated = (await trx
            .updateTable(users.table)
            .set({
              ...values,
              IdUsuarioModificacion: principal.userId,
              FechaModificacion: new Date().toISOString(),
            })
            .where('IdUsuario', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow()) as Row;
          await writeAudit(trx, registry, users, 'U', principal, id, existing, updated);
          return updated;
        });
      return { result: await answer(row, await settingsOf(db(), principal)) };
    },
  );

  /** The document fits its type; a changed type or login setting names a record there is. */
  async function checkReferences(
    trx: Db,
    principal: Principal,
    existing: Row,
    data: Row,
    problems: Record<string, FieldProblem>,
  ): Promise<void> {
    const types = registry.require('document-type');
    const typeId = data.IdTipoDocumento;
    const type =
      typeId === undefined
        ? undefined
        : ((await trx
            .selectFrom(types.table)
            .selectAll()
            .where(types.primaryKey, '=', typeId)
            .executeTakeFirst()) as (DocumentTypeRule & { Activo?: string }) | undefined);
    if (typeId !== undefined && changed(existing.IdTipoDocumento, typeId) && (!type || type.Activo === 'N'))
      problems.IdTipoDocumento = {
        messageKey: 'validation.referenceMissing',
        params: { resource: 'document-type' },
      };
    if (type && typeof data.Documento === 'string' && changed(existing.Documento, data.Documento)) {
      const problem = checkDocument(data.Documento, type);
      if (problem) problems.Documento = problem;
    }
    const settingId = data.IdConfiguracionLogeo;
    if (settingId !== undefined && changed(existing.IdConfiguracionLogeo, settingId)) {
      const settings = registry.require('login-setting');
      const found = await trx
        .selectFrom(settings.table)
        .select('IdConfiguracionLogeo')
        .where('IdConfiguracionLogeo', '=', settingId)
        .where('IdCliente', '=', client(principal))
        .where('Activo', '=', 'S')
        .executeTakeFirst();
      if (!found)
        problems.IdConfiguracionLogeo = {
          messageKey: 'validation.referenceMissing',
          params: { resource: 'login-setting' },
        };
    }
  }

  fastify.post(
    '/SeguridadusuarioClave/crear',
    {
      schema: {
        tags,
        summary: 'Set the password of a user of the session’s client, to be changed at the first sign-in',
        description:
          'For who manages users (the users screen, writable); not for one’s own password (cambiarClave). The password must satisfy the user’s login setting (length, level, not a common one, not containing the user name, not one of the last ones: result.id 2). The user’s sessions end and the next sign-in asks for a new password. result.id 0 when set.',
        body: objectOf({ IdCliente: field.id(), IdUsuario: field.text(100), Clave: field.text(128) }),
        response: result('{ id, mensaje }'),
      },
    },
    async (request) => {
      const principal = request.principal;
      if (!manages(principal)) throw new ApiError('FORBIDDEN');
      const input = payload(request.body);
      const userId = String(input.IdUsuario ?? '')
        .trim()
        .toLocaleUpperCase('es');
      const password = typeof input.Clave === 'string' ? input.Clave : '';
      const missing: Record<string, FieldProblem> = {};
      if (!userId) missing.IdUsuario = { messageKey: 'validation.required' };
      if (!password) missing.Clave = { messageKey: 'validation.required' };
      if (Object.keys(missing).length) throw invalid(missing);
      if (userId === principal.userId)
        throw new ApiError('BUSINESS_RULE', { messageKey: 'security.ownPasswordHere' });
      const record = (id: string) =>
        db().selectFrom(users.table).selectAll().where('IdUsuario', '=', id).executeTakeFirst() as Promise<
          Row | undefined
        >;
      const before = await record(userId);
      if (!before || before.IdCliente !== client(principal))
        throw new ApiError('NOT_FOUND', { messageKey: 'security.unknownUser', params: { user: userId } });
      // Nobody sets the password of a user who holds more than they do.
      if (!(await new UserRights(db(), registry, principal).mayManage(userId)))
        throw beyondRights('holdsMore', USERS, userId, { IdUsuario: userId, Clave: '********' });
      const accounts = new Accounts(db(), registry);
      const user = (await accounts.user(userId)) as UserRow;
      const passwords = fastify.auth.passwords;
      const setting = await accounts.setting(user);
      await passwords.checkNewPassword(user, setting, password);
      if (await passwords.reused(userId, password))
        return { result: { id: 2, mensaje: 'password.mustDiffer' } };
      await passwords.setPassword(user, setting, password, { firstChanged: 'N' });
      await fastify.auth.sessions.revokeUser(userId, 'password');
      await writeAudit(db(), registry, users, 'U', principal, userId, before, await record(userId));
      return { result: { id: 0, mensaje: 'password.changed' } };
    },
  );
}
