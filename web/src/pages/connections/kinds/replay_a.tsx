// `replay_a` (Microsoft Clarity): connected with a project's Data Export API token; its card
// replaces the token. Each daily run stores the last day's rage clicks, dead clicks and script
// errors per page, which the landing pages show as friction; recordings are watched in Clarity.

import type { KindModule } from '../kind-module';
import { ReplayAForm } from './replay_a/replay-a-form';

export const replay_a: KindModule = {
  kind: 'replay_a',
  offer: {
    render: ({ slug, onConnected }) => (
      <article aria-labelledby="connect-replay-a-title" data-offer="replay_a">
        <h2 id="connect-replay-a-title">Connect Microsoft Clarity</h2>
        <p>
          Rage clicks, dead clicks and script errors per page, read once a day. Clarity answers ten export requests per
          project a day, so it never runs on demand; Payback only reads, and links to your recordings in Clarity.
        </p>
        <ReplayAForm slug={slug} replacing={false} onConnected={onConnected} />
      </article>
    ),
  },
  useCard: ({ connection, onChanged }) => {
    const project = connection.config?.project_id;
    return {
      disconnect:
        'Payback deletes the stored Clarity token and stops reading this project. Friction already read stays in your reports; connect again at any time to resume.',
      panels: (
        <details class="replace-key">
          <summary>Replace token</summary>
          <ReplayAForm
            slug={connection.product_slug}
            replacing
            currentProject={typeof project === 'string' ? project : undefined}
            onConnected={onChanged}
          />
        </details>
      ),
    };
  },
  configLines: (config) => (typeof config.project_id === 'string' ? [`Clarity project ${config.project_id}`] : []),
};
