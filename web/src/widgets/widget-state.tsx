// Loading and failure inside a widget: the rest of the grid keeps working when one report fails.

import type { ComponentChildren } from 'preact';
import { ErrorNote, Loading } from '../ui/states';
import type { WidgetData } from './data';

export function WidgetAwait<T>({
  loaded,
  what,
  children,
}: {
  loaded: WidgetData<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (loaded.data === null) return <Loading what={what} />;
  return <>{children(loaded.data)}</>;
}
