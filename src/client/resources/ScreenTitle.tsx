import { useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import { useMeta } from '../providers/meta.js';
import { usePageTitle } from '../usePageTitle.js';
import { useLabeller } from './useLabeller.js';

/** The console's tab title from its translated parts: "<parts> · Acreditación". */
export function useConsoleTitle(...parts: Array<string | undefined | false>): void {
  const translate = useTranslate();
  usePageTitle(parts, translate('app.title'));
}

/**
 * Names the screen in the browser's tab: the list by its plural, a record's page by the record
 * and its kind, a new record's form by its kind.
 */
export function ScreenTitle({ kind }: { kind: 'list' | 'show' | 'edit' | 'create' }) {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  const meta = useMeta().resources.find((r) => r.name === resource);
  const label = useLabeller(meta, [record])(record);
  const name = translate(`resources.${resource}.name`, { smart_count: kind === 'list' ? 2 : 1 });
  useConsoleTitle(
    kind === 'edit' && translate('ra.action.edit'),
    kind === 'create' && translate('ra.action.create'),
    label,
    name,
  );
  return null;
}
