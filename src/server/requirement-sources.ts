import type { Db } from './db/connection.js';

/** What accreditation asks the requirement sources when a worker's request lines are made. */
export interface RequirementQuery {
  IdCliente: number;
  IdDivision: number;
  IdPersona: number;
  /** The requirements the request's lines ask for. */
  requirements: readonly number[];
  /** The request's dates (yyyy-mm-dd): a proof must hold on its start. */
  FechaInicio: string;
  FechaFin: string;
  /** The site's day: a proof must hold on it too, and have been obtained by then. */
  today: string;
}

/** A source's proof that a person meets a requirement: one record of the source's own. */
export interface RequirementEvidence {
  /** The record's id in its source: what the source names when the record no longer holds. */
  ref: string | number;
  /** The day it was obtained, and its last valid day (yyyy-mm-dd; null: it does not expire). */
  issued: string;
  expires: string | null;
  /** What the authoriser reads of it, labelled and in order (course, date, score, trainer, record). */
  facts: Record<string, string | number>;
  /** Where its certificate is read: a call of the source's area. */
  link?: string;
  /** What a text datum of the requirement takes (the trainer), and a number datum (the score). */
  text?: string;
  number?: number;
}

/** A proof as accreditation keeps it: with the name of the source that gave it. */
export type SourcedEvidence = RequirementEvidence & { source: string };

/**
 * A feature whose records prove accreditation requirements (a passed induction proves the
 * requirement bound to its course): asked in the transaction that makes a request's lines.
 */
export interface RequirementSource {
  /** Its name, kept with every value it proved (what endSourcedRequirements is told). */
  name: string;
  /** The proof it holds of each requirement it can prove for the person; none for the rest. */
  prove(db: Db, query: RequirementQuery): Promise<Map<number, RequirementEvidence>>;
}

/** Of two proofs of a requirement, the one that holds longer (never expiring is longest). */
const longer = (a: SourcedEvidence, b: SourcedEvidence) =>
  a.expires === null || (b.expires !== null && a.expires >= b.expires) ? a : b;

/**
 * The features' requirement sources, as the request engine asks them: every source in the
 * features' order, each requirement answered by the proof that holds longest.
 */
export class RequirementSources {
  constructor(private readonly sources: readonly RequirementSource[] = []) {}

  get size(): number {
    return this.sources.length;
  }

  async prove(db: Db, query: RequirementQuery): Promise<Map<number, SourcedEvidence>> {
    const proofs = new Map<number, SourcedEvidence>();
    if (!query.requirements.length) return proofs;
    for (const source of this.sources)
      for (const [requirement, evidence] of await source.prove(db, query)) {
        const found = { ...evidence, source: source.name };
        const kept = proofs.get(requirement);
        proofs.set(requirement, kept ? longer(kept, found) : found);
      }
    return proofs;
  }
}
