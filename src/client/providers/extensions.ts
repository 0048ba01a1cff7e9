import { type ComponentType, createContext, useContext } from 'react';

/**
 * What the feature areas add to the generic screens, given by the console at its root so the
 * generic screens never import a feature: actions on some resources' show and edit screens.
 */
export interface Extensions {
  recordActions: Record<string, ComponentType>;
}

export const ExtensionsContext = createContext<Extensions>({ recordActions: {} });

/** The extra actions of a resource's record screens, if a feature gives it some. */
export function useRecordActions(resource: string): ComponentType | undefined {
  return useContext(ExtensionsContext).recordActions[resource];
}
