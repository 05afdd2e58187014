// The containers the search-engine grant reaches for `tagmgr` (`options.tagmgr_containers`) as
// choices of the grant's picker.

import type { ChoiceItem } from '../../grant-connect';

/** One container as `GET /connect/searchco/status` lists it. */
export interface TagManagerContainer {
  /** `accounts/{account}/containers/{container}`. */
  path: string;
  name: string;
  /** `GTM-XXXX`, the id the site's container snippet names. */
  public_id: string;
}

/** The grant's containers as choices: every one may be chosen. */
export function containerChoices(options: unknown): ChoiceItem[] {
  const containers = Array.isArray(options) ? (options as TagManagerContainer[]) : [];
  return containers.map((container) => ({
    id: container.path,
    label: `${container.name} (${container.public_id})`,
    facts: container.path,
    why: null,
  }));
}
