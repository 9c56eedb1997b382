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

from clinical_envs.compat import require_classic_verifiers, verifiers_api
from clinical_envs.dialogue import DEFAULT_PROPORTIONS


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
    from clinical_envs.dialogue import mix_plan
    from clinical_envs.envs.escalation import EscalationEnv, escalation_rubric
    from clinical_envs.envs.mix import mix_metrics
    from clinical_envs.judge import judge_settings

    plan = mix_plan(corpora, size, seed, variants_per_scenario, split, eval_conditions)
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
        scenarios=plan.scenarios,
        schedule=plan.schedule,
        eval_schedule=plan.eval_schedule,
        rubric=escalation_rubric(funcs, {"escalation_reward": 1.0}, judge),
        tool_protocol=tool_protocol,
        max_tool_rounds=max_tool_rounds,
        max_calls_per_turn=max_calls_per_turn,
        max_seq_len=max_seq_len,
        judge=judge,
        grader=grader,
    )


# verifiers 0.4 (v1 API) imports this module and runs the Taskset (and Env) listed in __all__;
# the classic vf-eval calls load_environment. The v1 classes load only where v1 is the API.
__all__ = ["DEFAULT_PROPORTIONS", "load_environment"]
if verifiers_api() == "v1":
    from clinical_envs.v1.escalation import EscalationEnv, EscalationMixTaskset

    __all__ += ["EscalationEnv", "EscalationMixTaskset"]
