// `#/settings/team`: everyone in this workspace. Owners also invite people, change roles and
// disable or re-enable members; members see the list only (the server refuses them anyway).

import { useAccount } from '../../account';
import { isOwner } from '../../session';
import { when } from '../../format';
import { Await, Empty } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useApi } from '../../ui/use-api';
import { SettingsFrame } from './settings-frame';
import { InviteForm } from './team-invite-form';
import { MemberActions } from './team-member-actions';
import type { MemberStatus, TeamMember } from './types';

const statusLabels: Record<MemberStatus, string> = {
  active: 'Active',
  invited: 'Invited, not yet joined',
  disabled: 'Disabled',
};

export function TeamPage() {
  const { account } = useAccount();
  const owner = isOwner(account);
  const team = useApi<TeamMember[]>('/team');

  const columns: Column<TeamMember>[] = [
    {
      title: 'Member',
      cell: (m) => (
        <>
          {m.name ? (
            <>
              {m.name}
              <br />
              <small class="muted">{m.email}</small>
            </>
          ) : (
            m.email
          )}
          {m.email === account.email && <span class="badge">you</span>}
        </>
      ),
    },
    { title: 'Role', cell: (m) => (m.member_role === 'owner' ? 'Owner' : 'Member') },
    { title: 'Status', cell: (m) => <span class={`status-${m.status}`}>{statusLabels[m.status]}</span> },
    { title: 'Last seen', cell: (m) => when(m.last_seen_at, 'never') },
    { title: 'Added', cell: (m) => when(m.created_at) },
  ];
  if (owner) {
    columns.push({
      title: 'Actions',
      cell: (m) => <MemberActions member={m} isSelf={m.email === account.email} onChanged={team.reload} />,
    });
  }

  return (
    <SettingsFrame title="Team" path="/settings/team">
      {owner ? (
        <InviteForm onInvited={team.reload} />
      ) : (
        <p class="muted">
          You are a member of {account.account_name ?? 'this workspace'}. Only owners can invite
          people or change who has access.
        </p>
      )}
      <h2>People in {account.account_name ?? 'this workspace'}</h2>
      <Await loaded={team} what="Loading the team">
        {(members) =>
          members.length === 0 ? (
            <Empty title="Nobody here yet">Invite someone with the form above.</Empty>
          ) : (
            <Table columns={columns} rows={members} rowKey={(m) => m.id} caption="Team members, oldest first" />
          )
        }
      </Await>
    </SettingsFrame>
  );
}
