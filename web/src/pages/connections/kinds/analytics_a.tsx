// `analytics_a` (Google Analytics 4), through the search-engine grant or Payback's service
// account: its offer signs in to Google for it, the grant's picker lists the properties Google
// answered (its `pick`), and its card edits the event maps and can sign in again. Sessions and
// engaged sessions per channel feed the funnel; landing pages' sessions feed the landing pages.

import { STAGES } from '../../funnel/types';
import { GrantConnect } from '../grant-connect';
import type { GrantProvider, KindModule } from '../kind-module';
import { SEARCH_GRANT } from '../search-ads-connect';
import { ServiceAccountConnect } from '../service-account-connect';
import type { NamedEventMapWords } from '../named-event-maps';
import { useEventMapsPanel } from '../named-event-maps';
import { kindPath } from '../words';
import { propertyChoices } from './analytics_a/properties';

/**
 * GA4's event maps: `{event_name, stage}`, at most 50 (the server's `MAX_MAPS`); `visit` and
 * `engaged` are not offered, since the property's sessions count them.
 */
const EVENT_MAPS: NamedEventMapWords = {
  field: 'event_name',
  label: 'GA4 event name',
  placeholder: 'sign_up',
  stages: STAGES.filter((stage) => stage !== 'visit' && stage !== 'engaged'),
  maxMaps: 50,
  intro: (
    <>
      Each GA4 event you map counts, per day, as the stage you choose (<code>sign_up</code> as signups, for example).
      Visits and engaged sessions come from the property's sessions.
    </>
  ),
};

/** The grant's start button in this kind's words (the flow that follows is the grant's). */
const ANALYTICS_START: GrantProvider = {
  ...SEARCH_GRANT,
  words: {
    ...SEARCH_GRANT.words,
    intro:
      "Sign in with the Google account that has your site's Google Analytics property and allow Payback to read it. You then choose the property; its sessions per channel, landing pages and the events you map are read every day. Payback changes nothing in Google Analytics.",
    button: 'Connect Google Analytics',
    reconnectButton: 'Reconnect Google Analytics',
    title: 'Connect Google Analytics',
    failed: 'Google Analytics was not connected',
  },
};

export const analytics_a: KindModule = {
  kind: 'analytics_a',
  grant: {
    provider: SEARCH_GRANT,
    name: 'Google Analytics',
    purpose: 'sessions per channel, landing pages and events',
    noun: 'property',
    choice: 'analytics_a_properties',
    // Its own offer starts it (as Search Console's and Tag Manager's): signing in for Google Ads
    // never asks for the analytics scope unasked.
    ownStart: true,
    pick: {
      field: 'analytics_a_property_id',
      listField: 'property',
      legend: 'Choose the Google Analytics property of this product’s site',
      items: propertyChoices,
      chosenWords: (id) => `Google Analytics property ${id}`,
      none: 'Google granted access, but this Google account reaches no Google Analytics property. Sign in with the account that has your property.',
    },
  },
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-analytics-a-title" data-offer="analytics_a">
        <h2 id="connect-analytics-a-title">Connect Google Analytics</h2>
        <GrantConnect provider={ANALYTICS_START} slug={slug} kinds={[analytics_a]} reconnect={false} />
        <details class="service-account">
          <summary>Use a service account instead</summary>
          <ServiceAccountConnect slug={slug} kind={analytics_a} onConnected={onConnected} />
        </details>
      </article>
    ),
  },
  useCard: ({ connection, headingId, onChanged }) => {
    const maps = useEventMapsPanel({
      path: `/products/${encodeURIComponent(connection.product_slug)}/connections/${kindPath('analytics_a')}/event-maps`,
      headingId,
      maps: connection.event_maps,
      words: EVENT_MAPS,
      onSaved: onChanged,
    });
    return {
      actions: maps.toggle,
      disconnect: (
        <>
          Payback stops reading this property. Unless another connection uses the same Google sign-in, Payback revokes
          its access at Google and deletes the stored token. Sessions already read stay in your reports.
        </>
      ),
      panels: (
        <>
          {maps.panel}
          <details class="replace-key">
            <summary>Reconnect Google</summary>
            <GrantConnect provider={ANALYTICS_START} slug={connection.product_slug} kinds={[analytics_a]} reconnect />
          </details>
        </>
      ),
    };
  },
  configLines: (config) => {
    const id = typeof config.property_id === 'string' && config.property_id !== '' ? config.property_id : null;
    const name = typeof config.display_name === 'string' && config.display_name !== '' ? config.display_name : null;
    const credential =
      config.auth === 'service_account' ? "Payback's service account (no token stored)" : 'Google sign-in (token stored encrypted)';
    return [...(id ? [`property ${name ? `${name} ` : ''}(${id})`] : []), credential];
  },
};
