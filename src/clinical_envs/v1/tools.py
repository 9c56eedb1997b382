"""The escalation tools as a verifiers v1 ``Toolset``, served over MCP to the harness.

Why one Toolset whose tool list is built per task (and not a fixed Toolset, a Toolset class
per scenario, or an in-process harness): the tool-use corpus gives every scenario its own
tools (names, schemas, fixed results, an ``action`` tag), the other corpora share
``lookup_emergency_number`` and ``find_nearby_care``. verifiers 0.4 starts one server per
rollout, hands it the rollout's task (``ServerBase.setup_task``, fetched over the rollout's
``/task`` channel) *before* it registers its tools (``register``), so the server can offer
exactly the row's tools, with the row's own JSON schemas, and still work with every harness
that speaks MCP (null, bash, codex, ...). A Toolset per scenario would need a class per
scenario file (and ``Task.toolsets`` only sees the config, not the row); an in-process harness
would tie the environments to our harness. Which calls run, and what a refused or malformed
call returns, is decided before execution by the task's tool gate
(:meth:`clinical_envs.v1.escalation.EscalationTask.gate_tool_calls`), with the same parser
and the same rules as the classic environment; the tool actions are recorded from the trace
by the environment's loop.

Started by verifiers as ``python -m clinical_envs.v1.tools`` in the rollout's runtime.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import verifiers.v1 as vf

from clinical_envs.dialogue import (
    find_nearby_care,
    lookup_emergency_number,
    nearby_care,
    scenario_specs,
)
from clinical_envs.dialogue import scenario_from_wire as _scenario
from clinical_envs.toolcalls import ToolSpec, tool_spec
from clinical_envs.v1.toolspecs import register_specs

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


class EscalationToolset(vf.Toolset[vf.ToolsetConfig]):
    """The row's tools: its scenario's own tools, or the two shared ones. Tools are offered
    under their bare names (as in the classic environment and in the system prompt)."""

    TOOL_PREFIX = None

    def __init__(self, config: vf.ToolsetConfig) -> None:
        super().__init__(config)
        self.specs: dict[str, ToolSpec] = {}

    async def setup_task(self, task: Any) -> None:
        """``task``: the rollout's :class:`~clinical_envs.v1.escalation.EscalationData`."""
        self.specs = row_specs(task.scenario)

    def register(self, mcp: MCPServer) -> None:
        if not self.specs:
            raise RuntimeError(
                "EscalationToolset has no task: it serves one rollout and must be started "
                "by verifiers with the rollout's /task channel"
            )
        register_specs(mcp, self.specs.values())


def row_specs(scenario_data: Mapping[str, Any]) -> dict[str, ToolSpec]:
    """A row's tools: its scenario's own ones, else the shared ones bound to its locale."""
    scenario = _scenario(scenario_data)
    if scenario.tools:
        return scenario_specs(scenario)
    locale = scenario.locale

    def bound(care_type: str, location: str) -> str:
        return nearby_care(care_type, location, locale)

    shared = tool_spec(lookup_emergency_number)
    nearby = tool_spec(find_nearby_care)  # its keyword-only ``state`` is not an argument
    return {
        shared.name: shared,
        nearby.name: ToolSpec(nearby.name, nearby.description, nearby.parameters, bound),
    }


if __name__ == "__main__":
    EscalationToolset.run()
