// The frame shared by the settings pages: the page heading and a sub-navigation between
// Profile, Workspaces, Team and API keys.

import type { ComponentChildren } from 'preact';
import { href } from '../../router';
import { Page } from '../../ui/page';

const sections: { path: string; label: string }[] = [
  { path: '/settings/profile', label: 'Profile' },
  { path: '/settings/workspaces', label: 'Workspaces' },
  { path: '/settings/team', label: 'Team' },
  { path: '/settings/keys', label: 'API keys' },
  { path: '/billing', label: 'Billing' },
];

export function SettingsFrame({
  title,
  path,
  children,
}: {
  title: string;
  /** The current section's path, e.g. `/settings/team`. */
  path: string;
  children: ComponentChildren;
}) {
  return (
    <Page title={title}>
      <nav aria-label="Settings" class="settings-nav">
        <ul class="tabs">
          {sections.map((section) => (
            <li>
              <a href={href(section.path)} aria-current={section.path === path ? 'page' : undefined}>
                {section.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </Page>
  );
}
