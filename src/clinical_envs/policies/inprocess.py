"""The loopback endpoint without the network: policies answer inside the caller's event loop.

verifiers' own chat-completions client does everything it does for a real endpoint (prompt
and tool conversion, response parsing) except the HTTP round trip, so a benchmark measures
the environment and verifiers' loop, not a web server or an SDK's transport sharing the CPU.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from clinical_envs.policies.base import Policy
from clinical_envs.policies.server import answer


def inprocess_client(policies: Mapping[str, Policy]) -> Any:
    """A verifiers chat-completions client whose requests ``policies`` answer in-process."""
    import verifiers as vf
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion

    class InProcessClient(vf.OpenAIChatCompletionsClient):
        async def get_native_response(
            self,
            prompt: Any,
            model: str,
            sampling_args: Any,
            tools: list[Any] | None = None,
            **kwargs: Any,
        ) -> ChatCompletion:
            body = {"model": model, "messages": prompt, "tools": tools or []}
            status, data = answer(policies, json.dumps(body).encode())
            if status != 200:
                raise vf.ModelError(f"in-process endpoint answered {status}: {data.decode()}")
            return ChatCompletion.model_validate_json(data)

    return InProcessClient(AsyncOpenAI(base_url="http://in-process.invalid/v1", api_key="local"))
