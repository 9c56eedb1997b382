"""escalation-mix: emergency, crisis, defer and tool-use scenarios in one training dataset.

Rows interleave the corpora in the chosen proportions, so every GRPO batch sees scenarios where
escalating is right and scenarios where it is wrong; each rollout is scored by its own corpus's
rubric (reward = that corpus's weighted total; every corpus metric is reported, 0 where it does
not apply). No trivial policy wins: always escalating fails the defer corpus, always reassuring
fails the rest.

    vf-eval escalation-mix -m MODEL -b BASE_URL -k KEY_VAR -n 94 -r 1 -C reply_grades
"""

from __future__ import annotations

from typing import Any

from clinical_envs.compat import require_classic_verifiers

DEFAULT_PROPORTIONS = {"emergency": 0.35, "crisis": 0.2, "defer": 0.3, "tool_use": 0.15}


def load_environment(
    corpora: dict[str, float] | None = None,
    size: int | None = None,
    seed: int = 42,
    tool_protocol: str = "both",
    max_tool_rounds: int = 3,
    max_calls_per_turn: int = 8,
    max_seq_len: int | None = None,
) -> Any:
    """Build the environment.

    Args:
        corpora: Proportion of rows per corpus (emergency, crisis, defer, tool_use); corpora
            left out are not used. Default: 0.35 / 0.2 / 0.3 / 0.15.
        size: Number of rows (scenarios repeat to fill it); default: the smallest size at which
            every chosen scenario appears at least once (94 with the default proportions).
        seed: Seed of the order of scenarios within each corpus.
        tool_protocol: "both", "xml" (text tool calls only) or "native" (native only).
        max_tool_rounds: Tool-call rounds allowed inside one turn before the model must reply.
        max_calls_per_turn: Tool calls handled per assistant message; the rest get an error.
        max_seq_len: Token budget of a rollout, passed by prime-rl from its ``seq_len``.
    """
    require_classic_verifiers()
    from clinical_envs.envs.escalation import EscalationEnv, escalation_rubric
    from clinical_envs.envs.mix import MIX_CORPORA, interleave, mix_metrics
    from clinical_envs.scenarios import load_corpus

    proportions = DEFAULT_PROPORTIONS if corpora is None else corpora
    unknown = sorted(set(proportions) - set(MIX_CORPORA))
    if unknown:
        raise ValueError(
            f"unknown corpus {', '.join(unknown)}; choose from {', '.join(MIX_CORPORA)}"
        )
    pools = {name: load_corpus(MIX_CORPORA[name]) for name in proportions}
    schedule = interleave({n: [s.id for s in pools[n]] for n in pools}, proportions, size, seed)
    funcs = mix_metrics()
    return EscalationEnv(
        scenarios=[s for pool in pools.values() for s in pool],
        schedule=schedule,
        rubric=escalation_rubric(funcs, {"escalation_reward": 1.0}),
        tool_protocol=tool_protocol,
        max_tool_rounds=max_tool_rounds,
        max_calls_per_turn=max_calls_per_turn,
        max_seq_len=max_seq_len,
    )
