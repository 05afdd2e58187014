// The three states every data view has besides "here is the data": loading, failed, empty.

import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p aria-busy="true" class="muted">
      {what}…
    </p>
  );
}

/** An API refusal shown in place, with the server's own words. */
export function ErrorNote({ error }: { error: ApiError | string | null }) {
  if (!error) return null;
  const message = typeof error === 'string' ? error : error.message;
  return (
    <p role="alert" class="error-note">
      {message}
    </p>
  );
}

/** Nothing yet: say what it is and what to do next. */
export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <article class="empty">
      <strong>{title}</strong>
      {children && <div>{children}</div>}
    </article>
  );
}

/** Renders `children(data)` once loaded; otherwise loading or the error. */
export function Await<T>({
  loaded,
  children,
  what,
}: {
  loaded: { data: T | null; error: ApiError | null; loading: boolean };
  children: (data: T) => ComponentChildren;
  what?: string;
}) {
  if (loaded.error && loaded.data === null) return <ErrorNote error={loaded.error} />;
  if (loaded.data === null) return <Loading what={what} />;
  return (
    <>
      {loaded.error && <ErrorNote error={loaded.error} />}
      {children(loaded.data)}
    </>
  );
}
