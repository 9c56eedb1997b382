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
