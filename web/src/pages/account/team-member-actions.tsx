// An owner's controls on one team row: change the role, disable (after a confirmation, since it
// signs the person out at once) or enable again. Refusals (yourself, the last owner) show here.

import { useState } from 'preact/hooks';
import { useAccount } from '../../account';
import { api } from '../../api';
import type { MemberRole } from '../../types';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import type { TeamMember } from './types';

export function MemberActions({
  member,
  isSelf,
  onChanged,
}: {
  member: TeamMember;
  isSelf: boolean;
  onChanged: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const who = member.name || member.email;
  const { refresh } = useAccount();
  const change = useAction(async (path: string, body: unknown = {}) => {
    await api.post(`/team/${encodeURIComponent(member.id)}/${path}`, body);
    setConfirming(false);
    onChanged();
    // Changing your own role changes which controls this page may show you.
    if (isSelf) await refresh();
  });
  const otherRole: MemberRole = member.member_role === 'owner' ? 'member' : 'owner';

  if (confirming) {
    return (
      <div class="row-actions" role="group" aria-label={`Confirm disabling ${who}`}>
        <span>Disable {who}? They are signed out now.</span>
        <button
          type="button"
          class="small contrast"
          aria-busy={change.busy}
          disabled={change.busy}
          onClick={() => void change.run('disable')}
        >
          Yes, disable
        </button>
        <button type="button" class="small secondary outline" onClick={() => setConfirming(false)}>
          Cancel
        </button>
        <ErrorNote error={change.error} />
      </div>
    );
  }

  return (
    <div class="row-actions">
      <button
        type="button"
        class="small outline"
        aria-label={`Make ${who} ${otherRole === 'owner' ? 'an owner' : 'a member'}`}
        disabled={change.busy}
        onClick={() => void change.run('role', { member_role: otherRole })}
      >
        {otherRole === 'owner' ? 'Make owner' : 'Make member'}
      </button>
      {member.status === 'disabled' ? (
        <button
          type="button"
          class="small outline"
          aria-label={`Enable ${who}`}
          disabled={change.busy}
          onClick={() => void change.run('enable')}
        >
          Enable
        </button>
      ) : (
        // Nobody can disable themselves (the server refuses): no button to press in vain.
        !isSelf && (
          <button
            type="button"
            class="small outline secondary"
            aria-label={`Disable ${who}`}
            onClick={() => {
              change.setError(null);
              setConfirming(true);
            }}
          >
            Disable
          </button>
        )
      )}
      <ErrorNote error={change.error} />
    </div>
  );
}
