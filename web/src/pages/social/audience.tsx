// Followers at the end of the window, how they moved over it, and each network's part.

import { count, day } from '../../format';
import type { Audience } from './types';
import { networkName, signed } from './networks';

export function AudienceFigures({ audience }: { audience: Audience }) {
  return (
    <>
      <dl class="social-figures">
        <div data-figure="followers" data-value={audience.followers}>
          <dt>Followers</dt>
          <dd>{count(audience.followers)}</dd>
        </div>
        <div data-figure="followers_change" data-value={audience.followers_change}>
          <dt>Change over the window</dt>
          <dd class={audience.followers_change > 0 ? 'trend-up' : audience.followers_change < 0 ? 'trend-down' : undefined}>
            {signed(audience.followers_change, count)}
          </dd>
        </div>
        <div data-figure="as_of" data-value={audience.as_of ?? ''}>
          <dt>As of</dt>
          <dd>{day(audience.as_of)}</dd>
        </div>
      </dl>
      {audience.by_network.length > 0 && (
        <ul class="social-audience">
          {audience.by_network.map((network) => (
            <li data-network={network.network} data-followers={network.followers} data-change={network.followers_change}>
              <strong>{networkName(network.network)}</strong> {count(network.followers)} followers{' '}
              <small class="muted">({signed(network.followers_change, count)})</small>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
