import { type ComponentType, createContext, useContext } from 'react';
import type { EntityCode } from '../../shared/accreditation.js';

/**
 * The named places where one feature shows a part of another's screen, with the props each place
 * hands over: the place belongs to the screen that shows it, the part to the feature that fills it.
 */
export interface Slots {
  /** The requester dashboard's headcount tab: its own people on site, by kind (access). */
  requesterHeadcount: ComponentType<{
    kinds: Exclude<EntityCode, 'E'>[];
    /** The dashboard's year and months: the headcount is as of the latest month's end (today's while it lasts). */
    period?: { year: number; months: number[] };
  }>;
}

/**
 * What the feature areas add to the screens of others, given by the console at its root so no
 * screen imports a feature: actions on some resources' show and edit screens, a part below their
 * fields (a person's photos), and the slots.
 */
export interface Extensions {
  recordActions: Record<string, ComponentType>;
  /** Actions on a resource's list, beside its filter, create and export buttons (a job's run). */
  listActions: Record<string, ComponentType>;
  recordPanels: Record<string, ComponentType>;
  slots: Partial<Slots>;
}

export const ExtensionsContext = createContext<Extensions>({
  recordActions: {},
  listActions: {},
  recordPanels: {},
  slots: {},
});

/** The extra actions of a resource's record screens, if a feature gives it some. */
export function useRecordActions(resource: string): ComponentType | undefined {
  return useContext(ExtensionsContext).recordActions[resource];
}

/** The extra actions of a resource's list, if a feature gives it some. */
export function useListActions(resource: string): ComponentType | undefined {
  return useContext(ExtensionsContext).listActions[resource];
}

/** What a feature shows below the fields of a resource's record screens, if it gives something. */
export function useRecordPanel(resource: string): ComponentType | undefined {
  return useContext(ExtensionsContext).recordPanels[resource];
}

/** What a feature shows in a named place of another's screen, if one fills it. */
export function useSlot<K extends keyof Slots>(name: K): Slots[K] | undefined {
  return useContext(ExtensionsContext).slots[name];
}
