import { describe, expect, it } from 'vitest';
import { call, type signIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

describe.each(DIALECTS)('security calls of spec section 7 on %s', (dialect) => {
  let admin: Awaited<ReturnType<typeof signIn>>;
  let requester: Awaited<ReturnType<typeof signIn>>;
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    ready: async () => {
      admin = w.signedIn.admin;
      requester = w.signedIn.requester;
    },
  });

  it('SeguridadConfiguracionLogeo/obtenerTodos lists the client’s settings inside result', async () => {
    const res = await call(w.app, {
      method: 'GET',
      url: '/api/SeguridadConfiguracionLogeo/obtenerTodos?IdCliente=999',
      token: admin.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.result.map((s: { Descripcion: string }) => s.Descripcion)).toEqual([
      'DOBLE AUTENTICACIÓN POR CORREO',
      'POLÍTICA ESTÁNDAR',
    ]);
    // The client comes from the token, whatever the query says.
    expect(res.body.result.every((s: { IdCliente: number }) => s.IdCliente === admin.perfil.IdCliente)).toBe(
      true,
    );
  });

  it('SeguridadusuarioLogin/obtener answers one’s own record with its field settings', async () => {
    const res = await call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/obtener',
      token: requester.accessToken,
      payload: {},
    });
    expect(res.body.result).toMatchObject({
      IdUsuario: 'SOLICITANTE',
      Nombre: 'RICARDO',
      esNuevoRegistro: false,
    });
    expect(res.body.result.campos).toContainEqual({ Campo: 'Correo', Obligatorio: 'S', Modificable: 'S' });
    expect(res.body.result.campos).toContainEqual({ Campo: 'Activo', Obligatorio: 'S', Modificable: 'N' });
    const other = await call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/obtener',
      token: requester.accessToken,
      payload: { IdUsuario: 'ADMIN' },
    });
    expect(other.status).toBe(403);
    const byAdmin = await call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/obtener',
      token: admin.accessToken,
      payload: { IdUsuario: 'solicitante' },
    });
    expect(byAdmin.body.result.IdUsuario).toBe('SOLICITANTE');
  });

  it('SeguridadPerfilCaracteristica/listar pages a profile’s characteristics', async () => {
    const res = await call(w.app, {
      method: 'GET',
      url: `/api/SeguridadPerfilCaracteristica/listar?IdPerfil=${requester.perfil.IdPerfil}&NumPagina=1&TamPagina=10`,
      token: admin.accessToken,
    });
    expect(res.body.result).toMatchObject({ totalCount: 1, totalPages: 1 });
    expect(res.body.result.data[0].IdCaracteristica).toBe('SOL');
  });

  it('SeguridadUsuarioPerfil/listarbyPerfil lists assignments; a user without the screen sees only their own', async () => {
    const all = await call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadUsuarioPerfil/listarbyPerfil',
      token: admin.accessToken,
      payload: { IdPerfil: requester.perfil.IdPerfil },
    });
    expect(all.body.result.map((a: { IdUsuario: string }) => a.IdUsuario)).toEqual([
      'SOLICITANTE',
      'SOLICITANTE',
    ]);
    const own = await call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadUsuarioPerfil/listarbyPerfil',
      token: requester.accessToken,
      payload: {},
    });
    expect(new Set(own.body.result.map((a: { IdUsuario: string }) => a.IdUsuario))).toEqual(
      new Set(['SOLICITANTE']),
    );
  });

  it('SeguridadUsuarioPerfil/configuracionByUsuario answers the policy and the lock timeout', async () => {
    const res = await call(w.app, {
      method: 'GET',
      url: '/api/SeguridadUsuarioPerfil/configuracionByUsuario',
      token: requester.accessToken,
    });
    expect(res.body.result).toMatchObject({
      longitudClave: 8,
      nivelSeguridadClave: 'A',
      segundosInactividad: 400,
      dobleAutenticacion: 'N',
    });
  });
});
