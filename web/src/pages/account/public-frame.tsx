// The frame of the pages people see before they are signed in (login, signup, invite, claim):
// the product name above one narrow card, and the tab title.

import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

export function PublicFrame({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Payback`;
  }, [title]);
  return (
    <section class="public-page">
      <p class="public-brand">Payback</p>
      <article>
        <h1>{title}</h1>
        {children}
      </article>
    </section>
  );
}
