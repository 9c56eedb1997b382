"""A v1 harness that runs the null harness's chat loop in the test process.

verifiers allows a harness to run its loop in-process as long as every model call goes through
the rollout's interception endpoint (``Harness.launch``'s docstring). This one does what the
null harness's chat program does (a plain OpenAI tool-calling loop that asks the rollout's tool
gate before each call), minus the uv-installed program and the MCP client: it offers the
set-diagnosis tools itself. So the fast tests run real rollouts (interception server, tool
gate, stops, the environment's loop, scoring) in milliseconds; the slow equivalence test runs
the real null harness.

A call the gate lets through fails the rollout: every set-diagnosis call must be answered by
the gate (``clinical_envs.v1.diagnosis_tools``).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import verifiers.v1 as vf
from verifiers.v1.dialects.chat import message_to_wire
from verifiers.v1.runtimes import ProgramResult

from clinical_envs.v1.diagnosis_tools import advertised_specs

TOOLS = [{"type": "function", "function": spec.as_tool_def()} for spec in advertised_specs()]


class InProcessHarnessConfig(vf.HarnessConfig):
    pass


class InProcessHarness(vf.Harness[InProcessHarnessConfig]):
    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_MCP = True
    SUPPORTS_RESUME = True
    SUPPORTS_TOOL_INTERCEPTION = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(
        self,
        ctx: Any,
        trace: vf.Trace,
        runtime: Any,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: vf.TaskData,
        tool_interception_url: str | None = None,
    ) -> ProgramResult:
        system, prompt = self.resolve_prompt(data)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        else:
            messages += [message_to_wire(m) for m in prompt or []]
        headers = {"Authorization": f"Bearer {secret}"}
        body: dict[str, Any] = {"model": ctx.model, "messages": messages}
        if mcp_urls:
            body["tools"] = TOOLS
        async with httpx.AsyncClient(timeout=30) as client:
            while True:
                response = await client.post(
                    f"{endpoint.rstrip('/')}/chat/completions", json=body, headers=headers
                )
                if response.status_code != 200:  # a stop or a limit refused the call
                    return ProgramResult(1, "", response.text)
                message = response.json()["choices"][0]["message"]
                messages.append({k: v for k, v in message.items() if v is not None})
                if not message.get("tool_calls"):
                    return ProgramResult(0, "", "")
                for call in message["tool_calls"]:
                    assert tool_interception_url is not None
                    try:
                        arguments = json.loads(call["function"]["arguments"] or "{}")
                    except json.JSONDecodeError:
                        arguments = call["function"]["arguments"]
                    decision = (
                        await client.post(
                            tool_interception_url,
                            json={
                                "tool_call_id": call["id"],
                                "name": call["function"]["name"],
                                "arguments": arguments,
                            },
                            headers=headers,
                        )
                    ).json()
                    if decision.get("action") == "stop":
                        return ProgramResult(0, "", "")
                    if decision.get("action") != "deny":
                        raise AssertionError(f"the tool gate let {call} run: {decision}")
                    messages.append(decision["message"])


__all__ = ["InProcessHarness"]
