// Owners invite someone by email; the answer is a single-use link to hand over (it is also
// mailed when the service has mail delivery set up).

import { useState } from 'preact/hooks';
import { api } from '../../api';
import type { MemberRole } from '../../types';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { CopyableValue } from './copy-button';
import { readForm } from './form-values';
import type { Invitation } from './types';

export function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [sent, setSent] = useState<{ email: string; invitation: Invitation } | null>(null);
  const invite = useAction(async (form: HTMLFormElement, email: string, role: MemberRole) => {
    setSent(null);
    const invitation = await api.post<Invitation>('/team/invites', { email, member_role: role });
    form.reset();
    setSent({ email, invitation });
    onInvited();
  });

  return (
    <article>
      <h2>Invite someone</h2>
      <form
        onSubmit={(event) => {
          const form = event.currentTarget as HTMLFormElement;
          const values = readForm(event);
          void invite.run(form, values.email, values.member_role as MemberRole);
        }}
      >
        <div class="grid">
          <div>
            <label for="invite-email">Email</label>
            <input id="invite-email" name="email" type="email" required autocomplete="off" />
          </div>
          <div>
            <label for="invite-role">Role</label>
            <select id="invite-role" name="member_role" defaultValue="member" aria-describedby="invite-role-hint">
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
            <small id="invite-role-hint">
              Members work with products and the queue; owners also manage the team.
            </small>
          </div>
        </div>
        <ErrorNote error={invite.error} />
        <button type="submit" aria-busy={invite.busy} disabled={invite.busy}>
          Send invite
        </button>
      </form>
      {sent && <InviteSent email={sent.email} invitation={sent.invitation} />}
    </article>
  );
}

function InviteSent({ email, invitation }: { email: string; invitation: Invitation }) {
  const days = Math.round(invitation.expires_in_hours / 24);
  return (
    <section class="notice-success" aria-live="polite">
      <p>
        <strong>Invited {email}.</strong> Send them this link: it works once and for{' '}
        {days >= 1 ? `${days} day${days === 1 ? '' : 's'}` : `${invitation.expires_in_hours} hours`}.
        {invitation.already_registered
          ? ' They already have a Payback login and keep their password.'
          : ' They choose a password when they open it.'}{' '}
        Payback also mails it when mail delivery is set up.
      </p>
      <CopyableValue id="invite-url" label="Invite link" value={invitation.invite_url} />
    </section>
  );
}
