// `#/p/:slug/growth`: the product's growth actions, most pressing first. Each says what to do,
// the numbers behind it, what it may bring in the product's currency (or that it cannot be
// estimated honestly), and where to read or act; and each can be turned into a ready-to-paste
// prompt for the coding agent picked above the list. Nothing here changes anything: an action
// that moves budget links to raising a spend proposal, which a person then approves.

import { money, when } from '../../format';
import { href, setQuery } from '../../router';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await, Empty } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { WindowPicker } from '../../ui/window-picker';
import { AGENTS, DEFAULT_AGENT } from './agents';
import { API_REFERENCE, dashboardPath, raisesProposal } from './links';
import { PromptPanel } from './prompt-panel';
import type { ActionLink, AgentTool, GrowthAction, GrowthActionList } from './types';
import './growth.css';

export function GrowthPage({ slug, days, tool }: { slug: string; days: number; tool: AgentTool }) {
  return (
    <ProductFrame
      slug={slug}
      tab="/growth"
      actions={
        <>
          <AgentPicker tool={tool} />
          <WindowPicker days={days} />
        </>
      }
    >
      {(product) => <GrowthBody product={product} days={days} tool={tool} />}
    </ProductFrame>
  );
}

/** The coding agent prompts are shaped for, kept in the address (`?tool=`) like the window. */
function AgentPicker({ tool }: { tool: AgentTool }) {
  return (
    <label class="agent-picker">
      Coding agent
      <select
        aria-label="Coding agent"
        name="tool"
        value={tool}
        onChange={(event) => {
          const value = (event.currentTarget as HTMLSelectElement).value;
          setQuery({ tool: value === DEFAULT_AGENT ? null : value });
        }}
      >
        {AGENTS.map((agent) => (
          <option value={agent.tool}>{agent.name}</option>
        ))}
      </select>
    </label>
  );
}

function GrowthBody({ product, days, tool }: { product: ProductRow; days: number; tool: AgentTool }) {
  const slug = encodeURIComponent(product.slug);
  const list = useApi<GrowthActionList>(`/products/${slug}/growth-actions?days=${days}&tool=${tool}`);
  return (
    <Await loaded={list} what="Ranking growth actions">
      {(answer) => (
        <>
          <p class="muted" data-window={answer.window_days}>
            Last {answer.window_days} days, ranked {when(answer.generated_at)}: failing situations first, then the
            estimated impact. Nothing on this page changes your product or your spend.
          </p>
          {answer.actions.length === 0 ? (
            <Empty title="Nothing to act on">
              The product's tracking, funnel, sources and channels raise no action over this window.
            </Empty>
          ) : (
            <ol class="growth-actions">
              {answer.actions.map((action) => (
                <ActionItem key={action.id} action={action} product={product} days={days} tool={tool} />
              ))}
            </ol>
          )}
        </>
      )}
    </Await>
  );
}

const CATEGORY_WORDS: Record<string, string> = {
  tracking: 'Tracking',
  funnel: 'Funnel',
  advertising: 'Advertising',
  sources: 'Sources',
};

function ActionItem({
  action,
  product,
  days,
  tool,
}: {
  action: GrowthAction;
  product: ProductRow;
  days: number;
  tool: AgentTool;
}) {
  const titleId = `growth-${action.rank}`;
  return (
    <li
      class={`growth-action severity-${action.severity}`}
      aria-labelledby={titleId}
      data-action={action.id}
      data-rank={action.rank}
    >
      <div class="growth-action-head">
        <span class="growth-category" data-field="category" data-category={action.category}>
          {CATEGORY_WORDS[action.category] ?? action.category}
        </span>
        <h3 id={titleId} data-field="headline">
          {action.headline}
        </h3>
      </div>
      <p class="growth-why" data-field="why">
        {action.why}
      </p>
      <p class="growth-impact" data-field="impact">
        {action.estimated_impact_cents === null ? (
          <span class="muted" data-impact="none">
            impact not estimated
          </span>
        ) : (
          <>
            <span class="muted">Estimated impact: </span>
            <strong data-impact={action.estimated_impact_cents}>
              {money(action.estimated_impact_cents, product.currency)}
            </strong>
            <span class="muted"> over {days} days</span>
          </>
        )}
      </p>
      <Links action={action} slug={product.slug} />
      <PromptPanel key={`${action.id} ${tool} ${days}`} action={action} slug={product.slug} days={days} tool={tool} />
    </li>
  );
}

function Links({ action, slug }: { action: GrowthAction; slug: string }) {
  const proposal = action.links.some((link) => raisesProposal(link, slug));
  return (
    <>
      {action.links.length > 0 && (
        <ul class="growth-links">
          {action.links.map((link) => (
            <LinkItem link={link} slug={slug} />
          ))}
        </ul>
      )}
      {proposal && (
        <p class="growth-proposal-note" data-field="proposal-note">
          Budget moves only through a spend proposal: raising one (the API call above) puts a card in the{' '}
          <a href={href('/queue')}>approval queue</a>, and nothing changes until a person approves it there. This page
          never raises one.
        </p>
      )}
    </>
  );
}

/** A link to the dashboard page that does the same, or to the API reference for the call. */
function LinkItem({ link, slug }: { link: ActionLink; slug: string }) {
  const page = dashboardPath(link, slug);
  return (
    <li data-link-method={link.method} data-link-path={link.path} data-proposal={raisesProposal(link, slug) || undefined}>
      {page ? (
        <a href={href(page)}>{link.label}</a>
      ) : (
        <a href={API_REFERENCE} target="_blank" rel="noopener">
          {link.label}
        </a>
      )}{' '}
      <code class="muted">
        {link.method} {link.path}
      </code>
    </li>
  );
}
