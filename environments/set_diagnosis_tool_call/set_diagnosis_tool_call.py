"""set-diagnosis-tool-call: record the primary ICD-10-CM diagnosis of a clinical case report.

The model reads a case report, searches the real ICD-10-CM catalog with tools, records the primary
diagnosis and its acute/chronic status with ``set_diagnosis``, and finishes. Tool calls may be
native OpenAI ``tool_calls`` or ``<tool_call>{json}</tool_call>`` text. The reward is a weighted
partial-credit score over six sub-scores (see README), shared by evaluation and GRPO training.

Follows the upstream set-diagnosis-tool-call environment (mkurman), on the ICD-10-CM FY2026 code
set. Run offline on the bundled synthetic cases:

    vf-eval set-diagnosis-tool-call -a '{"dataset": "bundled"}' -m MODEL -b BASE_URL -k KEY_VAR

On verifiers 0.4 (v1 API) the same environment is ``SetDiagnosisTaskset`` (docs/v1.md):

    vf-eval set-diagnosis-tool-call --env.taskset.dataset bundled -m MODEL --client.base-url URL \
      --env.agent.harness.id null --env.agent.runtime.type subprocess --no-push
"""

from __future__ import annotations

from typing import Any

from clinical_envs.compat import require_classic_verifiers, verifiers_api

DEFAULT_DATASET = "mkurman/clinical-case-icd10-diagnosis"
DEFAULT_MAX_TURNS = 10


def load_environment(
    dataset: str = DEFAULT_DATASET,
    test_size: float = 0.1,
    seed: int = 42,
    max_turns: int = DEFAULT_MAX_TURNS,
    weights: dict[str, float] | str = "default",
    tool_protocol: str = "both",
    system_prompt: str | None = None,
    max_calls_per_turn: int = 8,
    max_seq_len: int | None = None,
) -> Any:
    """Build the environment.

    Args:
        dataset: A Hugging Face dataset id, a local .jsonl/.json/.parquet/.csv file with the
            columns input, icd10_code, diagnosis, status, or "bundled" (synthetic, offline).
        test_size: Fraction of rows held out as the eval split (0 puts every row in both).
        seed: Seed of the train/test split.
        max_turns: Assistant turns before the rollout is cut off.
        weights: "default", "binary" (eval only), or a mapping of sub-score name to weight.
        tool_protocol: "both", "xml" (text tool calls only) or "native" (native only).
        system_prompt: Replaces the task instructions (the tool-call format is still appended).
        max_calls_per_turn: Tool calls handled per assistant message; the rest get an error.
        max_seq_len: Token budget of a rollout; prime-rl sets it from ``seq_len`` after loading.
    """
    require_classic_verifiers()
    from clinical_envs.diagnosis.dataset import load_cases, split_cases
    from clinical_envs.diagnosis.prompts import SYSTEM_PROMPT
    from clinical_envs.envs.set_diagnosis import SetDiagnosisEnv, cases_to_dataset, diagnosis_rubric
    from clinical_envs.rewards.diagnosis import resolve_weights

    if max_turns < 1:
        raise ValueError(f"max_turns must be >= 1, got {max_turns}")
    splits = split_cases(load_cases(dataset), test_size, seed)
    return SetDiagnosisEnv(
        dataset=cases_to_dataset(splits.train),
        eval_dataset=cases_to_dataset(splits.test),
        rubric=diagnosis_rubric(resolve_weights(weights)),
        max_turns=max_turns,
        tool_protocol=tool_protocol,
        max_calls_per_turn=max_calls_per_turn,
        max_seq_len=max_seq_len,
        system_prompt=SYSTEM_PROMPT if system_prompt is None else system_prompt,
    )


# verifiers 0.4 (v1 API) imports this module and runs the Taskset (and Env) listed in __all__;
# the classic vf-eval calls load_environment. The v1 classes load only where v1 is the API.
__all__ = ["load_environment"]
if verifiers_api() == "v1":
    from clinical_envs.v1.diagnosis import SetDiagnosisEnv, SetDiagnosisTaskset

    __all__ += ["SetDiagnosisEnv", "SetDiagnosisTaskset"]
