"""The set-diagnosis tools as a verifiers v1 ``Toolset``: what the harness offers the model.

This server advertises the four tools (the classic names, descriptions and JSON schemas) and
runs none of them: every call is answered in the environment's own process, before the harness
would run it, by the task's tool gate
(:meth:`clinical_envs.v1.diagnosis.SetDiagnosisTask.gate_tool_calls`). Why:

* The ledger the tools write (recorded diagnoses, finished, problems) is per rollout, and the
  one-diagnosis-per-message rule needs to know which model message a call came from. The gate
  sees both (the rollout's trace and the message); a tool server sees neither.
* Cost. verifiers starts a per-task toolset as a new ``python -m`` process for every rollout.
  Measured on a 2-core machine, that process spends about 7 CPU-seconds before it serves,
  nearly all of it importing ``verifiers.v1`` (loading the ICD-10-CM index from its on-disk
  cache would add about 0.5 s), against about 4.7 CPU-seconds for the rest of a rollout with
  native calls (the harness's chat program). A taskset-wide server that only advertises the
  tools starts once per evaluation (``Taskset.toolsets``), so a rollout pays nothing for its
  tools, and the index loads once per environment process.

So a body here runs only when a client calls this server without the gate (verifiers ends a
rollout itself rather than let a harness that skips the gate run a call the gate answered); it
then says so and records nothing.

Started by verifiers as ``python -m clinical_envs.v1.diagnosis_tools``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import verifiers.v1 as vf

from clinical_envs.diagnosis.tools import tool_specs
from clinical_envs.toolcalls import ToolInputError, ToolSpec
from clinical_envs.v1.toolspecs import register_specs

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


class SetDiagnosisToolset(vf.Toolset[vf.SharedToolsetConfig]):
    """The four set-diagnosis tools, offered under their bare names (as in the classic
    environment and in the system prompt's text format)."""

    TOOL_PREFIX = None

    def register(self, mcp: MCPServer) -> None:
        register_specs(mcp, advertised_specs())


def advertised_specs() -> list[ToolSpec]:
    """The tools as the model sees them; their bodies refuse (see the module docstring)."""
    return [
        ToolSpec(spec.name, spec.description, spec.parameters, _outside_the_gate(spec.name))
        for spec in tool_specs().values()
    ]


def _outside_the_gate(name: str) -> Callable[..., str]:
    def refuse(**_arguments: Any) -> str:
        raise ToolInputError(
            f"{name} was not run: set-diagnosis tools are answered by the environment's tool "
            "gate, which this caller did not go through; nothing was recorded"
        )

    return refuse


if __name__ == "__main__":
    SetDiagnosisToolset.run()
