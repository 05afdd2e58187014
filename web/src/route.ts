// What a screen is to the shell: a hash path pattern and how it renders. Each area's
// `routes.ts` lists its screens; `routes.ts` gathers them.

import type { ComponentChildren } from 'preact';

export interface RouteProps {
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Route {
  /** e.g. `/p/:slug/funnel`. */
  pattern: string;
  render: (props: RouteProps) => ComponentChildren;
  /** Reachable without a session (login, signup, invite, claim). */
  public?: boolean;
}
