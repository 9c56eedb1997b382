"""escalation-mix: emergency, crisis, defer and tool-use scenarios in one training dataset.

Rows interleave the corpora in the chosen proportions, so every GRPO batch sees scenarios where
escalating is right and scenarios where it is wrong; each rollout is scored by its own corpus's
rubric (reward = that corpus's weighted total; every corpus metric is reported, 0 where it does
not apply). No trivial policy wins: always escalating fails the defer corpus, always reassuring
fails the rest.

    vf-eval escalation-mix -m MODEL -b BASE_URL -k KEY_VAR -n 30 -r 1 -C reply_grades
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clinical_envs.compat import require_classic_verifiers

DEFAULT_PROPORTIONS = {"emergency": 0.35, "crisis": 0.2, "defer": 0.3, "tool_use": 0.15}


def load_environment(
    corpora: dict[str, float] | None = None,
    size: int | None = None,
    seed: int = 42,
    variants_per_scenario: int = 0,
    split: str = "condition",
    eval_conditions: Sequence[str] | None = None,
    tool_protocol: str = "both",
    max_tool_rounds: int = 3,
    max_calls_per_turn: int = 8,
    max_seq_len: int | None = None,
    grader: str = "rules",
    judge_model: str | None = None,
    judge_base_url: str | None = None,
    judge_api_key_var: str = "OPENAI_API_KEY",
    judge_max_concurrency: int = 32,
    judge_timeout_s: float = 60.0,
    judge_cache: str | None = "~/.cache/clinical-envs/judge-verdicts.sqlite",
) -> Any:
    """Build the environment.

    Args:
        corpora: Proportion of rows per corpus (emergency, crisis, defer, tool_use); corpora
            left out are not used. Default: 0.35 / 0.2 / 0.3 / 0.15.
        size: Number of training rows (scenarios repeat to fill it); default: the smallest size
            at which every training scenario appears at least once. The eval rows always take
            that smallest size over the eval scenarios.
        seed: Seed of the order of scenarios within each corpus, and of the variants.
        variants_per_scenario: Training variants made from each training scenario (reordered
            pressure turns, some replaced from a library of the same pressure type); never in
            the eval rows.
        split: "condition": train and eval scenarios differ by condition family (about a
            quarter of each corpus and country held out); "all": every scenario in both.
        eval_conditions: Families or conditions to hold out instead of the default ones.
        tool_protocol: "both", "xml" (text tool calls only) or "native" (native only).
        max_tool_rounds: Tool-call rounds allowed inside one turn before the model must reply.
        max_calls_per_turn: Tool calls handled per assistant message; the rest get an error.
        max_seq_len: Token budget of a rollout; prime-rl sets it from ``seq_len`` after loading.
        grader: "rules" (deterministic classifier), "judge" (an LLM judge grades every reply)
            or "both" (a reply counts only when both say it holds; see the package README).
        judge_model: The judge's model name (required with "judge" or "both").
        judge_base_url: The judge's OpenAI-compatible endpoint; default: OpenAI.
        judge_api_key_var: Name of the environment variable that holds the judge's API key.
        judge_max_concurrency: Judge requests in flight at once in this process.
        judge_timeout_s: Seconds before a judge request counts as failed (the turn fails).
        judge_cache: SQLite file of verdicts shared by rollouts and runs; None: no cache.
    """
    require_classic_verifiers()
    from clinical_envs.envs.escalation import (
        EscalationEnv,
        all_packaged_scenarios,
        escalation_rubric,
    )
    from clinical_envs.envs.mix import MIX_CORPORA, interleave, mix_metrics
    from clinical_envs.judge import judge_settings
    from clinical_envs.splits import split_scenarios
    from clinical_envs.variants import with_variants

    proportions = DEFAULT_PROPORTIONS if corpora is None else corpora
    unknown = sorted(set(proportions) - set(MIX_CORPORA))
    if unknown:
        raise ValueError(
            f"unknown corpus {', '.join(unknown)}; choose from {', '.join(MIX_CORPORA)}"
        )
    every = all_packaged_scenarios()
    pools = {n: [s for s in every if s.corpus == MIX_CORPORA[n]] for n in proportions}
    parts = {n: split_scenarios(pools[n], every, split, eval_conditions) for n in pools}
    made = {n: with_variants(parts[n].train, variants_per_scenario, seed) for n in pools}
    train = {n: made[n][1] for n in pools}
    empty = [n for n in train if not train[n]]
    if empty:
        raise ValueError(
            f"eval_conditions hold out every {', '.join(empty)} scenario: nothing left to train "
            "on; hold out fewer, or leave that corpus out of corpora"
        )
    held = {n: [s.id for s in parts[n].eval] for n in pools if parts[n].eval}
    if not held:
        raise ValueError("eval_conditions hold out no scenario of the chosen corpora")
    # split="all" evaluates the rows it trains on (without variants), as before splits existed.
    eval_size = size if split == "all" else None
    funcs = mix_metrics()
    judge = judge_settings(
        grader,
        judge_model,
        judge_base_url,
        judge_api_key_var,
        judge_max_concurrency,
        judge_timeout_s,
        judge_cache,
    )
    return EscalationEnv(
        scenarios=[s for n in pools for s in (*pools[n], *made[n][0])],
        schedule=interleave(train, proportions, size, seed),
        eval_schedule=interleave(held, {n: proportions[n] for n in held}, eval_size, seed),
        rubric=escalation_rubric(funcs, {"escalation_reward": 1.0}, judge),
        tool_protocol=tool_protocol,
        max_tool_rounds=max_tool_rounds,
        max_calls_per_turn=max_calls_per_turn,
        max_seq_len=max_seq_len,
        judge=judge,
        grader=grader,
    )
