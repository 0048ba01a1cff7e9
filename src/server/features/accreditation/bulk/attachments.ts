/**
 * The zip of PDFs that may come with a bulk upload: a file per holder and requirement, named by
 * the holder's document (a plate for a vehicle) and the requirement, as the template's
 * instructions say: `<document>-<requirement>.pdf` (or `<document>/<requirement>.pdf`), and just
 * `<document>.pdf` when the profile asks for one file. Case, accents, spaces and separators do not
 * matter. The zip is opened by its central directory and an entry is inflated only when a row
 * claims it, one at a time and never beyond the size it declares.
 */

import { stat } from 'node:fs/promises';
import { fileKindOf } from '../../../../shared/accreditation.js';
import type { FieldProblem } from '../../../../shared/validation.js';
import { ApiError } from '../../../errors.js';
import {
  entryBytes,
  headOf,
  isZip,
  type ZipEntry,
  type ZipRefusals,
  zipEntries,
} from '../../../services/zip.js';
import type { ProfileDef } from '../catalogue.js';

/** The most the entries of an attachments zip may add up to once inflated. */
export const ATTACHMENTS_INFLATED_LIMIT = 4 * 1024 * 1024 * 1024 - 1;
/**
 * What one attachments zip may inflate to: 32 times its own size (scanned PDFs hardly compress;
 * a bomb compresses a thousand times), at least 256 MB, at most ATTACHMENTS_INFLATED_LIMIT. Each
 * entry is inflated at most once, so this bounds the work of the whole upload.
 */
export const attachmentsInflatedLimit = (zipBytes: number) =>
  Math.min(ATTACHMENTS_INFLATED_LIMIT, Math.max(256 * 1024 * 1024, 32 * zipBytes));
/** The most entries an attachments zip may hold. */
export const ATTACHMENTS_MAX_ENTRIES = 60_000;

const refuse = (messageKey: string, params?: Record<string, string | number>) =>
  new ApiError('VALIDATION_FAILED', { messageKey, params, fields: { attachments: { messageKey, params } } });

const refusals: ZipRefusals = {
  corrupt: () => refuse('bulk.errors.attachmentsCorrupt'),
  tooLarge: () => refuse('bulk.errors.attachmentsTooLarge'),
};

/** A name as matched: no accents, lower case, every run of other characters one hyphen. */
export const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** A datum that takes a file, and the name its file goes by after the holder's document. */
export interface AttachmentSlot {
  datum: number;
  /** The requirement's name as a file name (its datum's too when the requirement has two files). */
  name: string;
  requirement: string;
}

/** The data of a profile the requester attaches a file to, with the names their files go by. */
export function attachmentSlots(profile: ProfileDef): AttachmentSlot[] {
  const slots: AttachmentSlot[] = [];
  for (const requirement of profile.requirements) {
    if (requirement.TipoRequisito !== 'S') continue;
    const data = requirement.data.filter((d) => d.Tipo !== 'G' && d.AdjuntarArchivo === 'S');
    for (const datum of data)
      slots.push({
        datum: datum.IdDatoEvaluar,
        requirement: requirement.Requisito,
        name: slug(data.length > 1 ? `${requirement.Requisito} ${datum.DatoEvaluar}` : requirement.Requisito),
      });
  }
  return slots;
}

/** The file name a holder's attachment goes by in the zip, given how many files the profile asks for. */
export const attachmentName = (document: string, slot: AttachmentSlot, slots: number) =>
  slots === 1 ? `${document}.pdf` : `${document}-${slot.name}.pdf`;

/** One PDF found for a row's datum, kept in the file store, or the problem with it. */
export type Found = { datum: number; key: string; name: string } | { datum: number; problem: FieldProblem };

/** An uploaded attachments zip: its PDFs by the name they are matched by. */
export class Attachments {
  private readonly used = new Set<string>();
  /** The entries inflated so far (by where their data starts): each is inflated once at most. */
  private readonly inflated = new Set<number>();

  private constructor(
    private readonly path: string,
    private readonly byName: Map<string, ZipEntry>,
    private readonly slots: AttachmentSlot[],
  ) {}

  /** Opens the zip on disk; one that is no zip, damaged, encrypted or a zip bomb is refused. */
  static async open(path: string, slots: AttachmentSlot[]): Promise<Attachments> {
    if (!isZip(await headOf(path))) throw refuse('bulk.errors.attachmentsNotZip');
    const entries = await zipEntries(path, attachmentsInflatedLimit((await stat(path)).size), refusals);
    if (entries.size > ATTACHMENTS_MAX_ENTRIES)
      throw refuse('bulk.errors.attachmentsTooMany', { max: ATTACHMENTS_MAX_ENTRIES });
    const byName = new Map<string, ZipEntry>();
    for (const [name, entry] of entries) {
      if (name.endsWith('/') || name.startsWith('__MACOSX/')) continue;
      if (entry.encrypted) throw refuse('bulk.errors.attachmentsEncrypted');
      // A folder named by the document counts as the document before the file's name.
      const parts = name.split('/').filter(Boolean);
      const base = (parts.pop() ?? '').replace(/\.pdf$/i, '');
      const matched = slug([parts.pop(), base].filter(Boolean).join('-'));
      if (matched) byName.set(matched, entry);
    }
    return new Attachments(path, byName, slots);
  }

  /**
   * The PDFs of one holder, each read, checked (a PDF by its first bytes, within `maxBytes`) and
   * kept by `keep`; a problem is the cell's error.
   */
  async forHolder(document: string, maxBytes: number, keep: (bytes: Buffer) => Promise<string>) {
    const found: Found[] = [];
    const holder = slug(document);
    for (const slot of this.slots) {
      // With one file asked for, `<document>-<requirement>.pdf` is taken too.
      const stems = this.slots.length === 1 ? [holder, `${holder}-${slot.name}`] : [`${holder}-${slot.name}`];
      const wanted = stems.find((stem) => this.byName.has(stem));
      const entry = wanted === undefined ? undefined : this.byName.get(wanted);
      if (wanted === undefined || !entry || this.inflated.has(entry.start)) continue;
      this.used.add(wanted);
      this.inflated.add(entry.start);
      const name = entry.name.split('/').pop() ?? entry.name;
      if (entry.size > maxBytes) {
        found.push({
          datum: slot.datum,
          problem: {
            messageKey: 'accreditation.files.tooLarge',
            params: { max: Math.floor(maxBytes / 1024 / 1024), unit: 'MB' },
          },
        });
        continue;
      }
      const bytes = await entryBytes(this.path, entry, refusals);
      if (fileKindOf(bytes) !== 'pdf') {
        found.push({
          datum: slot.datum,
          problem: { messageKey: 'bulk.errors.attachmentNotPdf', params: { name } },
        });
        continue;
      }
      found.push({ datum: slot.datum, key: await keep(bytes), name });
    }
    return found;
  }

  /** The zip's files no row claimed, by their names in the zip. */
  unused(): string[] {
    return [...this.byName.entries()].filter(([key]) => !this.used.has(key)).map(([, entry]) => entry.name);
  }
}
