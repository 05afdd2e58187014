// What one source kind gives the connections pages: a kind's module in `kinds/<kind>.tsx`
// exports one `KindModule`, and `kinds/index.ts` lists them all. The pages render from that list
// and never name a kind themselves, so a kind is added by adding its module (and a registration
// line), not by edits spread over the pages. Kinds that share a form (the databases, the
// token-based social forms, one grant) share its component; their modules only register it.

import type { ComponentChildren, FunctionComponent } from 'preact';
import type { DatabaseShape } from './database-types';
import type { ChoiceItem } from './grant-connect';
import type { Connection } from './types';

/** What the product page hands an offer. */
export interface OfferProps {
  slug: string;
  /** The product's currency (ad accounts in another one are not offered). */
  currency: string;
  /** The kinds of this offer the product does not have yet, in the registry's order (never empty). */
  missing: KindModule[];
  onConnected: () => void;
}

/**
 * A connect offer of the product page, shown while the product lacks one of its kinds and no
 * grant of theirs is being finished on the page. Kinds offered together (a sign-in for two
 * kinds, one "Connect a database" for three engines) share the same object.
 */
export interface Offer {
  render: (props: OfferProps) => ComponentChildren;
}

/** What a card hands its kind's extras. */
export interface CardProps {
  connection: Connection;
  /** The id of the card's heading: the extras' own ids start with it. */
  headingId: string;
  /** Re-reads the inventory after a write. */
  onChanged: () => void;
}

/** A card's kind-specific parts, each placed where every card has room for it. */
export interface CardExtras {
  /** Facts after "Set up with". */
  facts?: ComponentChildren;
  /** Buttons between "Sync now" and "Disconnect". */
  actions?: ComponentChildren;
  /** What disconnecting does, for its confirmation (a default covers key-based kinds). */
  disconnect?: ComponentChildren;
  /** Panels under the card's notes (replace a key, reconnect, editors). */
  panels?: ComponentChildren;
}

/** How a kind shows in its provider's grant. */
export interface GrantPart {
  provider: GrantProvider;
  /**
   * The kind's name in the grant flow's heading ("Google Analytics": "Connect Google
   * Analytics"). Without it, the heading is the provider's title.
   */
  name?: string;
  /** What the kind brings, beside its name when the person picks kinds (none: no line). */
  purpose?: string;
  /** What the grant's picker chooses for it ("ad account", "page"). */
  noun: string;
  /** The key of the grant status's `options` the kind's choice comes from (`ad_accounts`). */
  choice: string;
  /**
   * Its own list in the provider's choice fields, for a provider whose picker gathers the lists
   * of the kinds it was asked for (the search-engine grant's).
   */
  pick?: GrantPick;
  /**
   * Started only from its own offer and card: a start for the provider's kinds together (the
   * flow's "start again") leaves it out, since the server may not offer it (an operator's switch).
   */
  ownStart?: boolean;
}

/** A kind's list in its provider's choice fields, shown when the grant's `options` hold its `choice`. */
export interface GrantPick {
  /** The `select` body's field the chosen option's id goes in. */
  field: string;
  /** What is chosen, for the list's ids and data attributes (`site`). */
  listField: string;
  legend: string;
  /** The grant's options under `choice`, as choices. */
  items: (options: unknown) => ChoiceItem[];
  /** The chosen option in the notice after connecting ("Search Console site https://shop.example/"). */
  chosenWords: (id: string) => string;
  /** Shown instead of the list when the grant reaches none. */
  none: string;
}

export interface KindModule {
  /** The wire word. */
  kind: string;
  /** The product page's offer to connect it. */
  offer?: Offer;
  /** Connected through a grant: its provider and its part in it. */
  grant?: GrantPart;
  /** A customer database: the engine's facts for the shared database form and editors. */
  database?: DatabaseShape;
  /**
   * Its token form, for offers that gather several kinds' forms ("Paste an access token
   * instead").
   */
  tokenForm?: (props: { slug: string; currency: string; onConnected: () => void }) => ComponentChildren;
  /** The card's extras. A hook: a card's kind never changes, so it is called on every render. */
  useCard?: (props: CardProps) => CardExtras;
  /** The redacted config in words, when it reads differently from the generic lines. */
  configLines?: (config: Record<string, unknown>) => string[];
}

/** `GET /connect/{provider}/status`, the parts every provider shares. */
export interface GrantStatusBase {
  status: 'pending' | 'complete' | 'error';
  product_slug: string;
  error?: string | null;
  /** What the grant reaches, by the choice's key (`ads_customers`, `ad_accounts`, `pages`). */
  options?: Record<string, unknown> | null;
  /** After select: `{activated: [kinds]}`. */
  results?: { activated?: string[] } | null;
}

/** What a provider's choice fields are handed. */
export interface ChooseProps {
  status: GrantStatusBase;
  /** The product's currency: accounts reporting in another one are not offered. */
  currency: string;
  /** The kinds of this provider, each with its part in the grant. */
  kinds: KindModule[];
  busy: boolean;
  error: string | null;
  /** Sends `body` (with the grant's `state`) to `select`; `notice` says what was connected. */
  onChoose: (body: Record<string, unknown>, notice: string) => Promise<void>;
  onCancel: () => void;
}

/** A provider's words, all that differs between the grants besides the choice fields. */
export interface GrantWords {
  /** The connect button's box class. */
  connectClass: string;
  intro: string;
  /** Reconnecting, for a kind whose choice is a `noun` ("page"). */
  reconnectIntro: (noun: string) => string;
  button: string;
  reconnectButton: string;
  /** Under the button: where the consent page opens. */
  note: string;
  /** The flow's article class (its heading's id is `${article}-title`). */
  article: string;
  title: string;
  reading: string;
  waiting: string;
  /** "Google Ads was not connected": the error's lead. */
  failed: string;
  done: string;
}

export interface GrantProvider {
  /** The provider's word in `/connect/{name}/...` and `?{name}_state=`. */
  name: string;
  words: GrantWords;
  /** The provider's own choice fields. */
  Choose: FunctionComponent<ChooseProps>;
}
