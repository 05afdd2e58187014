// `tagmgr` (Google Tag Manager), through the search-engine grant or Payback's service account:
// its offer signs in to Google for it, the grant's picker lists the containers Google answered
// (its `pick`), and its card can sign in again. Each sync audits whether the tracking snippet is
// live in the container; the tracking page publishes it there on request.

import { GrantConnect } from '../grant-connect';
import type { GrantProvider, KindModule } from '../kind-module';
import { SEARCH_GRANT } from '../search-ads-connect';
import { ServiceAccountConnect } from '../service-account-connect';
import { containerChoices } from './tagmgr/containers';

/** The grant's start button in this kind's words (the flow that follows is the grant's). */
const TAG_MANAGER_START: GrantProvider = {
  ...SEARCH_GRANT,
  words: {
    ...SEARCH_GRANT.words,
    intro:
      "Sign in with the Google account that manages your site's Tag Manager container. You then choose the container; Payback checks every hour whether its tracking snippet is live there, and publishes it only when you press Publish on the tracking page. Allow every permission Google asks for, or publishing will ask you to reconnect.",
    button: 'Connect Google Tag Manager',
    reconnectButton: 'Reconnect Google Tag Manager',
    title: 'Connect Google Tag Manager',
    failed: 'Google Tag Manager was not connected',
  },
};

export const tagmgr: KindModule = {
  kind: 'tagmgr',
  grant: {
    provider: SEARCH_GRANT,
    name: 'Google Tag Manager',
    noun: 'container',
    choice: 'tagmgr_containers',
    // It asks for Tag Manager's publishing scopes: only when the person chose it, never as part of
    // another Google kind's "start again".
    ownStart: true,
    pick: {
      field: 'tagmgr_container_path',
      listField: 'container',
      legend: 'Choose the Tag Manager container on this product’s site',
      items: containerChoices,
      chosenWords: (id) => `Tag Manager container ${id}`,
      none: 'Google granted access, but this Google account sees no Tag Manager container. Sign in with the account that manages your container.',
    },
  },
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-tagmgr-title" data-offer="tagmgr">
        <h2 id="connect-tagmgr-title">Connect Google Tag Manager</h2>
        <GrantConnect provider={TAG_MANAGER_START} slug={slug} kinds={[tagmgr]} reconnect={false} />
        <details class="service-account">
          <summary>Use a service account instead</summary>
          <ServiceAccountConnect slug={slug} kind={tagmgr} onConnected={onConnected} />
        </details>
      </article>
    ),
  },
  useCard: ({ connection }) => ({
    disconnect: (
      <>
        Payback stops checking this container and can no longer publish to it. Unless another connection uses the same
        Google sign-in, Payback revokes its access at Google and deletes the stored token. Tags already published stay
        in your container.
      </>
    ),
    panels: (
      <details class="replace-key">
        <summary>Reconnect Google</summary>
        <GrantConnect provider={TAG_MANAGER_START} slug={connection.product_slug} kinds={[tagmgr]} reconnect />
      </details>
    ),
  }),
  configLines: (config) => {
    const path = typeof config.container_path === 'string' ? config.container_path : null;
    const id = typeof config.public_id === 'string' ? config.public_id : null;
    const credential =
      config.auth === 'service_account' ? "Payback's service account (no token stored)" : 'Google sign-in (token stored encrypted)';
    return [...(path ? [`container ${id ? `${id} ` : ''}${path}`] : []), credential];
  },
};
