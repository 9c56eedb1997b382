"""The loopback OpenAI-compatible endpoint, spoken to over HTTP."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from clinical_envs.policies import Reply, ScriptedPolicy, serve_in_thread
from clinical_envs.policies.diagnosis_baseline import guess_status


def post(url: str, body: object) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def server():
    policy = ScriptedPolicy([Reply(None, [("lookup", {"q": 1})]), Reply("bye")])
    with serve_in_thread({"scripted": policy}) as server:
        yield server


def test_models_are_listed(server):
    with urllib.request.urlopen(server.base_url + "/models", timeout=10) as response:
        assert [m["id"] for m in json.loads(response.read())["data"]] == ["scripted"]


def test_native_and_text_tool_calls(server):
    url = server.base_url + "/chat/completions"
    tools = [{"type": "function", "function": {"name": "lookup", "parameters": {}}}]
    status, body = post(
        url, {"model": "scripted", "messages": [{"role": "user", "content": "hi"}], "tools": tools}
    )
    assert status == 200
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["tool_calls"][0]["function"] == {
        "name": "lookup",
        "arguments": '{"q": 1}',
    }
    status, body = post(url, {"model": "scripted", "messages": [{"role": "user", "content": "hi"}]})
    content = body["choices"][0]["message"]["content"]
    assert content.startswith("<tool_call>") and '"name": "lookup"' in content


def test_script_advances_with_assistant_turns_and_repeats_its_end(server):
    url = server.base_url + "/chat/completions"
    history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "x"}]
    for extra in range(3):
        messages = history + [{"role": "assistant", "content": "x"}] * extra
        assert (
            post(url, {"model": "scripted", "messages": messages})[1]["choices"][0]["message"][
                "content"
            ]
            == "bye"
        )


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        (
            {"model": "gpt-9", "messages": []},
            404,
            "unknown model 'gpt-9'; this server has: scripted",
        ),
        ({"messages": []}, 400, "bad chat completion request"),
        (b"{not json", 400, "bad chat completion request"),
    ],
)
def test_bad_requests(server, body, status, fragment):
    got_status, payload = post(server.base_url + "/chat/completions", body)
    assert got_status == status and fragment in payload["error"]["message"]


def test_status_guess():
    assert guess_status("Sudden onset two hours ago") == "acute"
    assert guess_status("Progressive symptoms over years; chronic course") == "chronic"


def test_eval_sh_stops_before_the_run_when_the_model_is_not_served(server):
    """Issue 12: a wrong model name ran to the end with every request failing and exit 0."""
    wait = Path(__file__).resolve().parents[1] / "scripts" / "_wait_for_server.py"
    port = str(urllib.parse.urlsplit(server.base_url).port)
    ok = subprocess.run([sys.executable, wait, port, "5", "scripted"], capture_output=True)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(
        [sys.executable, wait, port, "5", "gpt-4o"], capture_output=True, text=True
    )
    assert bad.returncode != 0
    assert "does not serve 'gpt-4o'; it serves: scripted" in bad.stderr


# --- streaming (the v1 harness of verifiers 0.4 asks for it; issue 14) --------------------------


def test_a_streamed_completion_is_the_same_completion_in_server_sent_events(server):
    url = server.base_url + "/chat/completions"
    tools = [{"type": "function", "function": {"name": "lookup", "parameters": {}}}]
    messages = [{"role": "user", "content": "hi"}]
    _, plain = post(url, {"model": "scripted", "messages": messages, "tools": tools})
    body = {
        "model": "scripted",
        "messages": messages,
        "tools": tools,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "x"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        events = response.read().decode().split("\n\n")
    assert events[-2:] == ["data: [DONE]", ""]
    chunks = [json.loads(e.removeprefix("data: ")) for e in events[:-2]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    calls = [t for c in chunks for ch in c["choices"] for t in ch["delta"].get("tool_calls", [])]
    assert [t["function"] for t in calls] == [
        t["function"] for t in plain["choices"][0]["message"]["tool_calls"]
    ]
    finish = [ch["finish_reason"] for c in chunks for ch in c["choices"] if ch["finish_reason"]]
    assert finish == ["tool_calls"]
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"] == plain["usage"]


def test_the_openai_client_reads_the_stream(server):
    openai = pytest.importorskip("openai")
    client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "x"}]
    messages.append({"role": "user", "content": "and now?"})
    stream = client.chat.completions.create(
        model="scripted", messages=messages, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "bye" and chunks[-1].usage is not None
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"


def test_a_streamed_request_that_fails_gets_a_json_error(server):
    status, body = post(
        server.base_url + "/chat/completions",
        {"model": "nobody", "messages": [{"role": "user", "content": "hi"}], "stream": True},
    )
    assert status == 404 and "unknown model" in body["error"]["message"]
