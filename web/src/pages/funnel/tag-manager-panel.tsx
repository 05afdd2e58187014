// The tracking page's tag manager panel, once a container is connected: the tag audit (is the
// snippet live in the container's published version?), Payback's last publish there, and the
// button that publishes the snippet. Publishing changes the live site, so it asks first
// (ConfirmAction); a read-only Google grant answers with a way to reconnect.

import { useCallback } from 'preact/hooks';
import { api } from '../../api';
import { when } from '../../format';
import { href } from '../../router';
import { ConfirmAction } from '../../ui/confirm-action';
import { useAction } from '../../ui/use-api';
import type { GtmDeploy, GtmDeployed } from './types';

export function TagManagerPanel({
  slug,
  deploy,
  onPublished,
}: {
  slug: string;
  deploy: GtmDeploy;
  onPublished: () => void;
}) {
  const path = `/products/${encodeURIComponent(slug)}/tracking/gtm-deploy`;
  const publish = useAction(useCallback(() => api.post<GtmDeployed>(path), [path]));
  const reconnect = publish.error !== null && /reconnect/i.test(publish.error);

  return (
    <article aria-labelledby="tag-manager-panel-title" data-testid="tag-manager">
      <h2 id="tag-manager-panel-title">Google Tag Manager</h2>
      <dl class="tracking-facts">
        <dt>Container</dt>
        <dd>
          <code>{deploy.container_path}</code>
        </dd>
        <dt>Snippet</dt>
        <dd data-testid="snippet-live">
          {deploy.snippet_live ? 'live in the published version' : 'not live in the published version'}
        </dd>
        <dt>Last publish from Payback</dt>
        <dd data-testid="last-publish">
          {deploy.published && deploy.version_name
            ? `${deploy.version_name}${deploy.deployed_at ? `, ${when(deploy.deployed_at)}` : ''}`
            : 'never'}
        </dd>
      </dl>
      <ConfirmAction
        label="Publish to Tag Manager"
        confirmLabel="Publish now"
        buttonClass="outline"
        question={
          <>
            Payback creates a workspace in this container, adds the snippet as one Custom HTML tag firing on all pages,
            and publishes a new version: it goes live on your site at once.
          </>
        }
        busy={publish.busy}
        error={publish.error}
        onConfirm={async () => {
          const answer = await publish.run();
          if (answer) onPublished();
          return answer !== undefined;
        }}
      />
      {reconnect && (
        <p class="muted" role="status">
          <a href={href(`/p/${slug}/connections`)}>Reconnect Google Tag Manager</a> and allow every permission it
          asks for, then publish again.
        </p>
      )}
    </article>
  );
}
