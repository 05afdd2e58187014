// The coding agents a growth action's prompt is shaped for: the spec's neutral tool words and
// the agent each stands for, as the server names them (`AgentTool` in
// crates/server/src/services/growth/prompts.rs).

import type { AgentTool } from './types';

export const AGENTS: { tool: AgentTool; name: string }[] = [
  { tool: 'agent_a', name: 'Claude Code' },
  { tool: 'agent_b', name: 'OpenAI Codex CLI' },
  { tool: 'agent_c', name: 'Cursor' },
  { tool: 'agent_d', name: 'GitHub Copilot coding agent' },
  { tool: 'agent_e', name: 'Aider' },
];

export const DEFAULT_AGENT: AgentTool = 'agent_a';

/** `tool` from the address when it names an agent, else the default (the server's too). */
export function readAgent(query: URLSearchParams): AgentTool {
  const tool = query.get('tool');
  return AGENTS.find((agent) => agent.tool === tool)?.tool ?? DEFAULT_AGENT;
}

export function agentName(tool: AgentTool): string {
  return AGENTS.find((agent) => agent.tool === tool)?.name ?? tool;
}
