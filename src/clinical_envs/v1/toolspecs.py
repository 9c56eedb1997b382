"""The core's :class:`~clinical_envs.toolcalls.ToolSpec` tools on an MCP server.

The v1 toolsets offer the tools the classic environments offer, under the same names, with the
same descriptions and the same JSON schemas: the schemas come from the specs, not from Python
signatures, so a model sees the same tool definitions on both APIs.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from clinical_envs.toolcalls import ToolInputError, ToolSpec

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

_PY_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool}


def register_specs(mcp: MCPServer, specs: Iterable[ToolSpec]) -> None:
    """Add each spec to ``mcp`` as a tool advertising the spec's own schema."""
    for spec in specs:
        mcp.add_tool(mcp_function(spec), name=spec.name, description=spec.description)
        # Advertise the schema exactly as the classic environment does (the function's
        # signature only drives argument binding). MCPServer has no public setter; without
        # its tool manager the signature's own schema is offered.
        manager = getattr(mcp, "_tool_manager", None)
        tool = manager.get_tool(spec.name) if manager is not None else None
        if tool is not None:
            tool.parameters = spec.parameters


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
