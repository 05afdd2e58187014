// The read-only share link: mint it (or show the live one), copy it, revoke it.

import { useRef, useState } from 'preact/hooks';
import { api } from '../../api';
import { copyOrSelect } from '../../ui/clipboard';
import { ConfirmAction } from '../../ui/confirm-action';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { Shared } from './types';

export function SharePanel({
  base,
  shareUrl,
  onChange,
}: {
  base: string;
  shareUrl: string | null;
  onChange: () => void;
}) {
  const [copied, setCopied] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const share = useAction(async () => {
    await api.post<Shared>(`${base}/share`);
    onChange();
  });
  const revoke = useAction(async () => {
    await api.post(`${base}/share/revoke`);
    onChange();
    return true;
  });
  return (
    <section class="scorecard-share" aria-label="Share link">
      <h2>Share</h2>
      {shareUrl ? (
        <>
          <p>Anyone with this link can read the scorecard (not change it) until you revoke it.</p>
          <div class="grid">
            <input ref={field} readOnly aria-label="Share link" value={shareUrl} data-share-url />
            <button
              type="button"
              class="outline small"
              onClick={async () => setCopied(await copyOrSelect(shareUrl, () => field.current?.select()))}
            >
              {copied === 'copied' ? 'Copied' : 'Copy link'}
            </button>
            <ConfirmAction
              label="Revoke link"
              confirmLabel="Revoke the link"
              question="The link stops working at once; sharing again makes a new one."
              busy={revoke.busy}
              error={revoke.error}
              onConfirm={async () => (await revoke.run()) === true}
            />
          </div>
        </>
      ) : (
        <p>
          <button type="button" class="outline" aria-busy={share.busy} onClick={() => void share.run()}>
            Create a share link
          </button>
        </p>
      )}
      <ErrorNote error={share.error} />
    </section>
  );
}
