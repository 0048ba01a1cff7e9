import { DEMO_PASSWORD } from '../../src/server/demo/security.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/**
 * Calls a server's API and answers its `result` (the whole body where it has none, as the REST
 * resources answer); any answer but a 2xx throws with the body.
 */
export async function api(
  url: string,
  method: string,
  path: string,
  token?: string,
  body?: object | FormData,
) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      'accept-language': 'es',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
    },
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json && typeof json === 'object' && 'result' in json ? json.result : json;
}

/**
 * A demo user's session token, signed in through `url` with the demo password (and no code: a
 * user whose setting sends one is not for this), in the division named `division` or the first.
 * Where the server asks for the sign-in challenge, it is solved as the console's widget does.
 */
export async function sessionOf(url: string, username: string, division?: string): Promise<string> {
  const challenge = await api(url, 'GET', `/api/auth/challenge?usuario=${encodeURIComponent(username)}`);
  const tokenClient =
    challenge.enabled === false ? undefined : await (await import('./challenge.js')).answer(challenge);
  const login = await api(url, 'POST', '/api/usuario/authenticate', undefined, {
    username,
    password: DEMO_PASSWORD,
    tokenClient,
  });
  const chosen = division ? login.division.find((d: Json) => d.Division === division) : login.division[0];
  const session = await api(url, 'POST', '/api/usuario/refreshTokenbyperfil', login.accessToken, {
    idPerfil: chosen.IdPerfil,
    idDivision: chosen.IdDivision,
  });
  return session.accessToken;
}

/** The demo requester's session token in the south division, signed in through `url`. */
export const requester = (url: string): Promise<string> =>
  sessionOf(url, 'SOLICITANTE', 'UNIDAD MINERA SAN GABRIEL');

/**
 * The demo contract CT-2026-001 and worker profile a requester's bulk upload uses through `url`,
 * with that contract and profile's template (base64, as excelformato answers it).
 */
export async function demoBulkTemplate(url: string, token: string) {
  const rest = async (resource: string) =>
    (await (
      await fetch(`${url}/api/rest/${resource}?range=[0,99]`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as Json[];
  const contract = (await rest('contract')).find((c) => c.NumeroContrato === 'CT-2026-001')
    .IdContrato as number;
  const profile = (await rest('accreditation-profile')).find(
    (p) => p.Descripcion === 'TRABAJADOR CONTRATISTA',
  ).IdPerfilAcreditacion as number;
  const template = await api(
    url,
    'GET',
    `/api/acreditacionsolicitud/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${profile}`,
    token,
  );
  return { contract, profile, template: template as { fileBase64: string; fileName: string } };
}

/**
 * The administrator's calls through the server `url()` names, signed in once at the first call
 * (sign-ins are throttled, 30 a minute): each answers the body as sent, an error's included.
 */
export function adminCalls(url: () => string) {
  let token: string | undefined;
  return async (method: string, path: string, body?: object): Promise<Json> => {
    token ??= await sessionOf(url(), 'ADMIN');
    const res = await fetch(`${url()}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json();
  };
}
