import { createHash, randomBytes } from 'node:crypto';
import type { ReadingConfig } from '../../../shared/access/reading.js';
import type { Db } from '../../db/connection.js';
import { ACCESS_TABLES } from './tables.js';

/** The equipment a key authenticates, with what the device calls need of it. */
export interface Device {
  IdEquipo: number;
  IdCliente: number;
  IdDivision: number;
  /** Minutes the device's clock runs ahead of the server's (negative: behind). */
  DiferenciaHoraria: number;
  Funcion: 'E' | 'S' | 'A';
  /** How its raw reads become what was presented (its active reading configuration), when it has one. */
  reading?: ReadingConfig;
}

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** How long a verified key is still trusted while the database does not answer. */
const TRUST_MS = 30_000;

/**
 * Per-equipment keys: a device sends `Authorization: Device <key>`. Only the SHA-256 of a key is
 * stored (a key is 32 random bytes, so a plain hash suffices); the key itself is shown once, when
 * issued. Issuing a key revokes the equipment's previous ones (rotation); revoking stops them all.
 * Every call asks the database, so a key revoked or an equipment switched off (by this process or
 * another) stops on the next call. Verified keys are remembered for 30 s only for when the database
 * does not answer: the gate then keeps an honest answer (deny, with the reason).
 */
export class DeviceKeys {
  private readonly trusted = new Map<string, { device: Device; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new key for the equipment; the ones it had stop working in the same transaction. */
  async issue(equipmentId: number, userId: string): Promise<{ key: string; prefix: string }> {
    const key = `eq${equipmentId}.${randomBytes(32).toString('base64url')}`;
    const prefix = key.slice(0, key.indexOf('.') + 7);
    const at = this.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable(ACCESS_TABLES.deviceKey)
        .set({ RevocadoEn: at })
        .where('IdEquipo', '=', equipmentId)
        .where('RevocadoEn', 'is', null)
        .execute();
      await trx
        .insertInto(ACCESS_TABLES.deviceKey)
        .values({
          IdEquipo: equipmentId,
          Hash: hashOf(key),
          Prefijo: prefix,
          IdUsuario: userId,
          CreadoEn: at,
        })
        .execute();
    });
    this.forget(equipmentId);
    return { key, prefix };
  }

  /** Stops every key of the equipment; answers how many were in force. */
  async revoke(equipmentId: number): Promise<number> {
    const result = await this.db
      .updateTable(ACCESS_TABLES.deviceKey)
      .set({ RevocadoEn: this.now() })
      .where('IdEquipo', '=', equipmentId)
      .where('RevocadoEn', 'is', null)
      .executeTakeFirst();
    this.forget(equipmentId);
    return Number(result.numUpdatedRows);
  }

  /** The key in force for the equipment (its prefix and when it was issued), if any. */
  async current(equipmentId: number): Promise<{ prefix: string; issuedAt: string } | undefined> {
    const row = (await this.db
      .selectFrom(ACCESS_TABLES.deviceKey)
      .select(['Prefijo', 'CreadoEn'])
      .where('IdEquipo', '=', equipmentId)
      .where('RevocadoEn', 'is', null)
      .orderBy('CreadoEn', 'desc')
      .executeTakeFirst()) as { Prefijo: string; CreadoEn: number | string } | undefined;
    return row && { prefix: row.Prefijo, issuedAt: new Date(Number(row.CreadoEn)).toISOString() };
  }

  /**
   * The active equipment a key belongs to; undefined for an unknown, revoked or inactive one. Throws
   * when the database does not answer and the key is not among those recently verified.
   */
  async verify(key: string): Promise<Device | undefined> {
    const hash = hashOf(key);
    const at = this.now();
    const known = this.trusted.get(hash);
    const recent = known && known.until > at ? known.device : undefined;
    let row: (Device & { Activo: string } & Partial<ReadingConfig>) | undefined;
    try {
      row = (await this.db
        .selectFrom(`${ACCESS_TABLES.deviceKey} as k`)
        .innerJoin('system_equipment as e', 'e.IdEquipo', 'k.IdEquipo')
        .leftJoin('system_reading_configuration as c', (join) =>
          join.onRef('c.IdConfiguracionLectura', '=', 'e.IdConfiguracionLectura').on('c.Activo', '=', 'S'),
        )
        .select([
          'e.IdEquipo',
          'e.IdCliente',
          'e.IdDivision',
          'e.DiferenciaHoraria',
          'e.Funcion',
          'e.Activo',
          'c.TipoLectura',
          'c.Formato',
          'c.PosicionInicio',
          'c.LongitudDato',
        ])
        .where('k.Hash', '=', hash)
        .where('k.RevocadoEn', 'is', null)
        .executeTakeFirst()) as (Device & { Activo: string } & Partial<ReadingConfig>) | undefined;
    } catch (error) {
      if (recent) return recent;
      throw error;
    }
    if (row?.Activo !== 'S') {
      this.trusted.delete(hash);
      return undefined;
    }
    const device: Device = {
      IdEquipo: Number(row.IdEquipo),
      IdCliente: Number(row.IdCliente),
      IdDivision: Number(row.IdDivision),
      DiferenciaHoraria: Number(row.DiferenciaHoraria ?? 0),
      Funcion: row.Funcion,
      ...(row.TipoLectura && {
        reading: {
          TipoLectura: row.TipoLectura,
          Formato: String(row.Formato ?? ''),
          PosicionInicio: Number(row.PosicionInicio ?? 0),
          LongitudDato: row.LongitudDato == null ? null : Number(row.LongitudDato),
        },
      }),
    };
    this.trusted.set(hash, { device, until: at + TRUST_MS });
    return device;
  }

  private forget(equipmentId: number) {
    for (const [hash, entry] of this.trusted)
      if (entry.device.IdEquipo === equipmentId) this.trusted.delete(hash);
  }
}
