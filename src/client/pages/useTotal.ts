import { type Identifier, useGetList } from 'react-admin';
import type { ResourceName, ResourceTypes } from '../../shared/generated/entities.js';

/**
 * How many records of a resource match a filter. The filter is typed by the entity's generated
 * type, so a renamed or removed field fails the type check instead of silently counting everything.
 */
export function useTotal<R extends ResourceName>(resource: R, filter: Partial<ResourceTypes[R]> = {}) {
  const { total, isPending } = useGetList<ResourceTypes[R] & { id: Identifier }>(resource, {
    pagination: { page: 1, perPage: 1 },
    filter,
  });
  return isPending ? undefined : total;
}
