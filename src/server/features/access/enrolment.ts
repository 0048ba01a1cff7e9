import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection.js';
import type { DeviceKeys } from '../../services/site/device-keys.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';

/** How long an enrolment code may be exchanged. */
export const ENROLMENT_TTL_MS = 10 * 60_000;

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** Why an enrolment code was refused. */
export type EnrolmentProblem = 'unknown' | 'used' | 'expired' | 'equipmentInactive';

export interface Enrolled {
  key: string;
  equipment: { IdEquipo: number; Descripcion: string; Funcion: 'E' | 'S' | 'A' };
  controlPoints: Array<{ IdPuntoControl: number; Descripcion: string }>;
}

/**
 * One-time codes that enrol a gate app as a device of an equipment: the equipment's screen shows a
 * code in a QR (never the device key); the app exchanges it once, within ten minutes, for a new
 * device key (the equipment's previous keys stop, as when a key is issued on the screen). Only the
 * SHA-256 of a code is stored (a code is 16 random bytes); using it is one conditional UPDATE, so two
 * phones scanning the same QR at once get one key between them.
 */
export class Enrolment {
  constructor(
    private readonly db: Db,
    private readonly keys: DeviceKeys,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new code for the equipment, and until when it may be exchanged. */
  async create(equipmentId: number, userId: string): Promise<{ code: string; expiresAt: string }> {
    const code = randomBytes(16).toString('base64url');
    const at = this.now();
    await this.db
      .insertInto(ACCESS_TABLES.enrolment)
      .values({
        Hash: hashOf(code),
        IdEquipo: equipmentId,
        IdUsuario: userId,
        CreadoEn: at,
        ExpiraEn: at + ENROLMENT_TTL_MS,
      })
      .execute();
    // Used and long-expired codes are of no further use.
    await this.db
      .deleteFrom(ACCESS_TABLES.enrolment)
      .where('ExpiraEn', '<', at - 24 * 3_600_000)
      .execute();
    return { code, expiresAt: new Date(at + ENROLMENT_TTL_MS).toISOString() };
  }

  /** The device key, equipment and control points a code enrols; or why the code is refused. */
  async exchange(code: string): Promise<Enrolled | { problem: EnrolmentProblem }> {
    const hash = hashOf(code);
    const at = this.now();
    const used = await this.db
      .updateTable(ACCESS_TABLES.enrolment)
      .set({ UsadoEn: at })
      .where('Hash', '=', hash)
      .where('UsadoEn', 'is', null)
      .where('ExpiraEn', '>=', at)
      .executeTakeFirst();
    const row = (await this.db
      .selectFrom(ACCESS_TABLES.enrolment)
      .select(['IdEquipo', 'IdUsuario', 'UsadoEn'])
      .where('Hash', '=', hash)
      .executeTakeFirst()) as { IdEquipo: number; IdUsuario: string | null; UsadoEn: unknown } | undefined;
    if (!row) return { problem: 'unknown' };
    if (Number(used.numUpdatedRows) !== 1) return { problem: row.UsadoEn == null ? 'expired' : 'used' };
    const equipmentId = Number(row.IdEquipo);
    const equipment = (await this.db
      .selectFrom('system_equipment')
      .select(['IdEquipo', 'Descripcion', 'Funcion', 'Activo'])
      .where('IdEquipo', '=', equipmentId)
      .executeTakeFirst()) as
      | { IdEquipo: number; Descripcion: string; Funcion: 'E' | 'S' | 'A'; Activo: string }
      | undefined;
    if (equipment?.Activo !== 'S') return { problem: 'equipmentInactive' };
    const points = (await this.db
      .selectFrom('access_control_point as p')
      .innerJoin('access_control_point_equipos as e', 'e.IdPuntoControl', 'p.IdPuntoControl')
      .select(['p.IdPuntoControl', 'p.Descripcion'])
      .where('e.Valor', '=', equipmentId)
      .where('p.Activo', '=', 'S')
      .orderBy('p.Descripcion')
      .execute()) as Array<{ IdPuntoControl: number; Descripcion: string }>;
    const { key } = await this.keys.issue(equipmentId, row.IdUsuario ?? '');
    return {
      key,
      equipment: {
        IdEquipo: equipmentId,
        Descripcion: equipment.Descripcion,
        Funcion: equipment.Funcion,
      },
      controlPoints: points.map((p) => ({
        IdPuntoControl: Number(p.IdPuntoControl),
        Descripcion: p.Descripcion,
      })),
    };
  }
}
