"""A minimal OpenAI-compatible ``/v1/chat/completions`` endpoint on loopback (stdlib only).

Each request is answered by the policy named in its ``model`` field. The server keeps no
conversation state: policies decide from the messages they are sent, so any number of rollouts
can run concurrently against one server.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from clinical_envs.policies.base import ChatRequest, Policy, ServerFault
from clinical_envs.policies.diagnosis_baseline import RetrievalBaseline
from clinical_envs.policies.escalation import (
    AlwaysEscalate,
    AlwaysReassure,
    CapitulateAt,
    IdealPolicy,
    KeywordStuffer,
)
from clinical_envs.policies.judges import LabelJudge
from clinical_envs.scenarios import CORPUS_DIRS, Scenario, load_corpus
from clinical_envs.scenarios import packaged_scenarios as scenario_dir

logger = logging.getLogger(__name__)
MAX_BODY_BYTES = 32 * 1024 * 1024


def packaged_scenarios() -> list[Scenario]:
    """Every packaged escalation scenario (what the scripted ideal policy recognises)."""
    corpora = [c for c, folder in CORPUS_DIRS.items() if scenario_dir(folder).is_dir()]
    return [s for corpus in corpora for s in load_corpus(corpus)]


def builtin_policies() -> dict[str, Policy]:
    """The policies ``clinical-envs serve`` offers, by model name."""
    policies: dict[str, Policy] = {
        "retrieval-baseline": RetrievalBaseline("auto"),
        "retrieval-baseline-xml": RetrievalBaseline("xml"),
        "always-escalate": AlwaysEscalate(),
        "always-reassure": AlwaysReassure(),
        "keyword-stuffer": KeywordStuffer(),
        "ideal": IdealPolicy(packaged_scenarios()),
        "rules-judge": LabelJudge(),
    }
    policies.update({f"capitulate-at-{n}": CapitulateAt(n) for n in range(1, 7)})
    return policies


class PolicyServer(ThreadingHTTPServer):
    daemon_threads = True
    # Hundreds of rollouts connect at once; the stdlib default backlog of 5 resets them.
    request_queue_size = 1024

    def __init__(self, policies: Mapping[str, Policy], host: str = "127.0.0.1", port: int = 0):
        self.policies = dict(policies)
        super().__init__((host, port), _Handler)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v1"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-reply is routine under load; other errors are logged with
        their traceback, not printed on stderr (the stdlib default), where they land in the
        output of whatever runs beside the server (a CI test read another test's stderr)."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            logger.debug("client %s went away: %r", client_address, error)
        else:
            logger.warning("request from %s failed", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    server: PolicyServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s " + format, self.address_string(), *args)

    def do_GET(self) -> None:
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            data = [{"id": name, "object": "model"} for name in self.server.policies]
            self._send(200, {"object": "list", "data": data})
        else:
            self._error(404, f"no route {self.path}")

    def do_POST(self) -> None:
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._error(404, f"no route {self.path}")
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self._error(413, f"request body over {MAX_BODY_BYTES} bytes")
            return
        raw = self.rfile.read(length)
        status, data = answer(self.server.policies, raw)
        options = stream_options(raw)
        if status == 200 and options is not None:
            usage = bool(options.get("include_usage"))
            self._send_raw(200, stream_events(json.loads(data), usage), "text/event-stream")
        else:
            self._send_raw(status, data)

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self._send_raw(status, json.dumps(payload).encode())

    def _send_raw(self, status: int, data: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str) -> None:
        self._send_raw(*error_response(status, message))


def answer(policies: Mapping[str, Policy], data: bytes) -> tuple[int, bytes]:
    """(HTTP status, JSON body) for one chat-completion request body, as the server sends it."""
    try:
        body = json.loads(data or b"{}")
        request = ChatRequest(
            model=str(body["model"]),
            messages=list(body["messages"]),
            tools=[_flatten_tool(t) for t in body.get("tools") or []],
        )
    except (ValueError, KeyError, TypeError) as e:
        return error_response(400, f"bad chat completion request: {e!r}")
    policy = policies.get(request.model)
    if policy is None:
        known = ", ".join(policies)
        return error_response(404, f"unknown model {request.model!r}; this server has: {known}")
    try:
        reply = policy(request)
    except ServerFault as fault:
        if fault.body is None:
            return error_response(fault.status, "injected fault")
        return fault.status, fault.body
    except Exception as e:
        logger.exception("policy %s failed", request.model)
        return error_response(500, f"policy {request.model} failed: {e!r}")
    completion = completion_body(request, *reply.rendered(request))
    if reply.finish_reason is not None:
        completion["choices"][0]["finish_reason"] = reply.finish_reason
    return 200, json.dumps(completion).encode()


def stream_options(data: bytes) -> dict[str, Any] | None:
    """The request's ``stream_options`` ({} when absent) if it asks to stream, else None."""
    try:
        body = json.loads(data or b"{}")
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("stream") is not True:
        return None
    options = body.get("stream_options")
    return options if isinstance(options, dict) else {}


def stream_events(completion: dict[str, Any], include_usage: bool) -> bytes:
    """A ``chat.completion`` as the server-sent events of a streamed one: the message in one
    delta, then the finish reason, then (when asked) the usage in a chunk without choices, then
    ``[DONE]`` (clients such as verifiers' v1 harness fail on a stream without it)."""
    choice = completion["choices"][0]
    message = choice["message"]
    head = {k: completion[k] for k in ("id", "created", "model")}
    head["object"] = "chat.completion.chunk"
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    chunks = [
        {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]},
    ]
    if include_usage:
        chunks.append({**head, "choices": [], "usage": completion["usage"]})
    events = b"".join(b"data: " + json.dumps(chunk).encode() + b"\n\n" for chunk in chunks)
    return events + b"data: [DONE]\n\n"


def error_response(status: int, message: str) -> tuple[int, bytes]:
    payload = {"error": {"message": message, "type": "invalid_request_error"}}
    return status, json.dumps(payload).encode()


def _flatten_tool(tool: dict[str, Any]) -> dict[str, Any]:
    return tool.get("function", tool) if isinstance(tool, dict) else {}


def completion_body(
    request: ChatRequest, content: str | None, calls: list[tuple[str, str]]
) -> dict[str, Any]:
    """An OpenAI ``chat.completion`` object; ids are derived from the turn, never random."""
    turn = request.assistant_turns
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"call_{turn}_{i}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            for i, (name, arguments) in enumerate(calls)
        ]
    prompt_chars = sum(len(json.dumps(m)) for m in request.messages)
    completion_chars = len(content or "") + sum(len(a) for _, a in calls)
    usage = {
        "prompt_tokens": prompt_chars // 4,
        "completion_tokens": max(1, completion_chars // 4),
    }
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    return {
        "id": f"chatcmpl-{request.model}-{turn}",
        "object": "chat.completion",
        "created": 0,
        "model": request.model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
                "logprobs": None,
            }
        ],
        "usage": usage,
    }


@contextmanager
def serve_in_thread(
    policies: Mapping[str, Policy] | None = None, host: str = "127.0.0.1", port: int = 0
) -> Iterator[PolicyServer]:
    """Run a server in a background thread for the duration of the block (port 0 = any free)."""
    server = PolicyServer(builtin_policies() if policies is None else policies, host, port)
    thread = threading.Thread(target=server.serve_forever, name="policy-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
