/**
 * What a suite needs of the run's prepared databases (templates.ts makes them once per run): their
 * description, provided to every test file, and the copy of a template folder. Kept apart from
 * templates.ts so that a browser file, which only copies a folder, does not load the server's code.
 */
import { cpSync } from 'node:fs';
import type { DialectName } from '../../src/server/db/connection.js';

export type TemplateKind = 'demo' | 'bare';

export interface DatabaseTemplates {
  /** The dialects the database tests run on: SQLite, and PostgreSQL when it answers. */
  dialects: DialectName[];
  /** Per dialect and kind, the folder a suite's data folder starts as: kept files, and SQLite's database file. */
  folders: Record<DialectName, Record<TemplateKind, string>>;
  /** Per kind, the name of the prepared PostgreSQL database (when PostgreSQL is in the run). */
  postgres?: Record<TemplateKind, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/** Copies a template folder (kept files, and SQLite's database file) into `target`. */
export function copyTemplateFolder(template: string, target: string): void {
  cpSync(template, target, { recursive: true });
}
