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

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import verifiers.v1 as vf

from clinical_envs.dialogue import (
    find_nearby_care,
    lookup_emergency_number,
    nearby_care,
    scenario_specs,
)
from clinical_envs.dialogue import scenario_from_wire as _scenario
from clinical_envs.toolcalls import ToolInputError, ToolSpec, tool_spec

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

_PY_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool}


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
        for spec in self.specs.values():
            mcp.add_tool(mcp_function(spec), name=spec.name, description=spec.description)
            # Advertise the row's schema exactly as the classic environment does (the
            # function's signature only drives argument binding). MCPServer has no public
            # setter; without its tool manager the signature's own schema is offered.
            manager = getattr(mcp, "_tool_manager", None)
            tool = manager.get_tool(spec.name) if manager is not None else None
            if tool is not None:
                tool.parameters = spec.parameters


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


def mcp_function(spec: ToolSpec) -> Callable[..., str]:
    """``spec`` as a function MCP can register: keyword arguments typed from its JSON schema;
    a :class:`ToolInputError` becomes ``error: ...`` text, as the classic environment words it."""
    props: Mapping[str, Any] = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    params = []
    for name, prop in props.items():
        kind = _PY_TYPES.get(prop.get("type", "string"), str)
        optional = name not in required
        params.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=kind | None if optional else kind,
                default=None if optional else inspect.Parameter.empty,
            )
        )

    def run(**arguments: Any) -> str:
        given = {k: v for k, v in arguments.items() if v is not None or k in required}
        try:
            return str(spec.func(**given))
        except ToolInputError as e:
            return f"error: {e}"

    run.__name__ = spec.name
    run.__doc__ = spec.description
    run.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    return run


if __name__ == "__main__":
    EscalationToolset.run()
