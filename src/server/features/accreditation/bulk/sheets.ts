import type { Language } from '../../../../shared/constants.js';
import type { CrudService } from '../../../crud/service.js';
import type { Row } from '../../../crud/types.js';
import type { Database, Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import { t } from '../../../i18n.js';
import type { Registry } from '../../../registry.js';
import type { Requester } from '../../../services/requester.js';
import { loadProfile, type ProfileDef } from '../catalogue.js';
import { attachmentName, attachmentSlots } from './attachments.js';
import { type BulkColumn, bulkColumns, isBulkEntity } from './columns.js';
import { templateWorkbook } from './workbook.js';

/**
 * What a bulk upload's file looks like: the profile it is for (checked against the requester's
 * division, kinds and contracts), its columns in either language, its template, its headings.
 */
export class BulkSheets {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly crud: CrudService,
    private readonly maxRows: number,
  ) {}

  private table(name: string): string {
    return this.registry.require(name).table;
  }

  private get db(): Db {
    return this.database.db;
  }

  /**
   * The profile of a bulk upload: a worker's or a vehicle's, for the requester's division; for a
   * requirement update, the requirement must be one of its requester's requirements.
   */
  async profile(
    requester: Requester,
    contract: number,
    profileId: number,
    requirement: number | null = null,
  ): Promise<ProfileDef> {
    const { principal } = requester;
    const profile = await loadProfile(this.db, this.registry, principal.clientId as number, profileId, {
      divisionId: principal.divisionId,
    });
    // Workers, vehicles and visits come by file; a visit is not renewed (it ends with its dates).
    if (!isBulkEntity(profile.IdEntidad) || (profile.IdEntidad === 'P' && requirement !== null))
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdPerfilAcreditacion: { messageKey: 'bulk.errors.notBulkEntity' } },
      });
    if (!requester.entities.includes(profile.IdEntidad)) throw new ApiError('FORBIDDEN');
    const visible = await this.crud
      .within(this.db)
      .findKeys(this.registry.require('contract'), { IdContrato: contract }, principal);
    if (!visible.length)
      throw new ApiError('MISSING_REFERENCE', {
        fields: {
          IdContrato: { messageKey: 'validation.referenceMissing', params: { resource: 'contract' } },
        },
      });
    if (
      requirement !== null &&
      !profile.requirements.some((r) => r.IdRequisito === requirement && r.TipoRequisito === 'S')
    )
      throw new ApiError('VALIDATION_FAILED', {
        fields: { IdRequisito: { messageKey: 'bulk.errors.requirementNotInProfile' } },
      });
    return profile;
  }

  /** What a template asks for: the whole profile, or for a requirement update that requirement only. */
  scoped(profile: ProfileDef, requirement: number | null): ProfileDef {
    return requirement === null
      ? profile
      : { ...profile, requirements: profile.requirements.filter((r) => r.IdRequisito === requirement) };
  }

  /**
   * A template's columns: a mobilisation's (bulkColumns), or a requirement update's: the holder's
   * identity (document type and number, or plate), then the requirement's data.
   */
  async columnsOf(
    requester: Requester,
    profile: ProfileDef,
    requirement: number | null,
    language: Language,
  ): Promise<BulkColumn[]> {
    const columns = await bulkColumns(
      this.db,
      this.registry,
      requester.principal,
      this.scoped(profile, requirement),
      language,
    );
    if (requirement === null) return columns;
    const identity = profile.IdEntidad === 'V' ? ['Placa'] : ['IdTipoDocumento', 'Documento'];
    return columns.filter((c) => identity.includes(c.key) || c.datum !== undefined);
  }

  /** The requester requirements of a profile a requirement update may renew from a file. */
  async requirements(requester: Requester, profileId: number): Promise<Row[]> {
    const profile = await loadProfile(
      this.db,
      this.registry,
      requester.principal.clientId as number,
      profileId,
      {
        divisionId: requester.principal.divisionId,
      },
    );
    if (!requester.entities.includes(profile.IdEntidad)) throw new ApiError('FORBIDDEN');
    return profile.requirements
      .filter((r) => r.TipoRequisito === 'S')
      .map((r) => ({ IdRequisito: r.IdRequisito, Requisito: r.Requisito }));
  }

  /** excelformato: the template of a contract and profile, in the caller's language. */
  async template(
    requester: Requester,
    contract: number,
    profileId: number,
    language: Language,
    requirement: number | null = null,
  ): Promise<{ bytes: Buffer; fileName: string }> {
    const profile = await this.profile(requester, contract, profileId, requirement);
    const columns = await this.columnsOf(requester, profile, requirement, language);
    const renewed = profile.requirements.find((r) => r.IdRequisito === requirement);
    const row = (await this.db
      .selectFrom(this.table('contract'))
      .select(['NumeroContrato'])
      .where('IdContrato', '=', contract)
      .executeTakeFirst()) as { NumeroContrato?: string } | undefined;
    const contractName = row?.NumeroContrato ?? String(contract);
    const slots = attachmentSlots(this.scoped(profile, requirement));
    const holder = t(language, `bulk.instructions.${profile.IdEntidad === 'V' ? 'plate' : 'document'}`);
    const bytes = await templateWorkbook(
      columns,
      {
        contract,
        contractName,
        profile: profileId,
        profileName: profile.Descripcion,
        entity: t(language, `enums.bulkEntity.${profile.IdEntidad}`),
        visit: profile.IdEntidad === 'P',
        requirement: renewed ? { id: renewed.IdRequisito, name: renewed.Requisito } : undefined,
      },
      slots.map((slot) => ({
        requirement: slot.requirement,
        fileName: attachmentName(holder, slot, slots.length),
      })),
      this.maxRows,
      language,
    );
    const safe = `${contractName} ${renewed ? renewed.Requisito : profile.Descripcion}`
      .replace(/[\\/:*?"<>|]/g, '')
      .slice(0, 80);
    return { bytes, fileName: `${safe}.xlsx` };
  }

  /**
   * The columns a file is read with: a list's text is taken in either language (the template was
   * written in its downloader's), or its stored value.
   */
  async readingColumns(
    requester: Requester,
    profile: ProfileDef,
    requirement: number | null,
  ): Promise<BulkColumn[]> {
    const [es, en] = await Promise.all(
      (['es', 'en'] as const).map((l) => this.columnsOf(requester, profile, requirement, l)),
    );
    return es.map((column, i) =>
      column.choices ? { ...column, choices: [...column.choices, ...(en[i].choices ?? [])] } : column,
    );
  }

  /** Recent uploads' headings by upload and language: the screen asks for them with every page of rows. */
  private readonly headingsKept = new Map<string, { until: number; headings: Map<string, string> }>();

  /** The header of each column of an upload's template in the caller's language, by key. */
  async headings(
    requester: Requester,
    upload: {
      IdCargaMasiva: number;
      IdCliente: number;
      IdPerfilAcreditacion: number;
      IdRequisito?: number | null;
    },
    language: Language,
  ): Promise<Map<string, string>> {
    const key = `${upload.IdCargaMasiva}:${language}`;
    const kept = this.headingsKept.get(key);
    if (kept && kept.until > Date.now()) return kept.headings;
    const profile = await loadProfile(this.db, this.registry, upload.IdCliente, upload.IdPerfilAcreditacion);
    const columns = await this.columnsOf(requester, profile, upload.IdRequisito ?? null, language);
    const headings = new Map(columns.map((c) => [c.key, c.header]));
    if (this.headingsKept.size >= 200) this.headingsKept.clear();
    this.headingsKept.set(key, { until: Date.now() + 60_000, headings });
    return headings;
  }
}
