"""Deterministic reference policies behind a local OpenAI-compatible endpoint.

They let anyone run the real ``vf-eval`` end to end without a model: a retrieval baseline for
set-diagnosis, and scripted policies for tests. Start one with ``clinical-envs serve``.
"""

from clinical_envs.policies.base import ChatRequest, Policy, Reply, ScriptedPolicy, ServerFault
from clinical_envs.policies.server import PolicyServer, builtin_policies, serve_in_thread

__all__ = [
    "ChatRequest",
    "Policy",
    "PolicyServer",
    "Reply",
    "ScriptedPolicy",
    "ServerFault",
    "builtin_policies",
    "serve_in_thread",
]
