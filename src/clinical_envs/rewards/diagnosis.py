"""Scores for set-diagnosis-tool-call: six partial-credit sub-scores and their weights.

Identity is the code (dot- and case-insensitive); status is the near-miss field. A correct code
with the wrong status earns the code-identity scores but not coverage/precision, so a group of
rollouts almost never ties and GRPO keeps a gradient.

A gold diagnosis may list other acceptable codes (``acceptable_codes``): a recorded acceptable
code is read as the gold code itself, so it earns full credit, and recording several of them
counts once, exactly like recording the gold code twice (hedging gains nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from clinical_envs import icd10
from clinical_envs.rewards import once_per_rollout, override_weights

DEFAULT_WEIGHTS: dict[str, float] = {
    "coverage_score": 0.45,
    "precision_score": 0.15,
    "code_identity_coverage_score": 0.20,
    "code_identity_precision_score": 0.10,
    "json_valid_score": 0.05,
    "num_unique_diagnoses_score": 0.05,
}
# Eval-only: all-or-nothing on exact (code, status) coverage. Never train on it: a group of
# rollouts with equal rewards has zero advantage and prime-rl drops it.
BINARY_WEIGHTS: dict[str, float] = {name: 0.0 for name in DEFAULT_WEIGHTS} | {"coverage_score": 1.0}
WEIGHT_PRESETS = {"default": DEFAULT_WEIGHTS, "binary": BINARY_WEIGHTS}

Key = tuple[str, str]


@dataclass(frozen=True)
class DiagnosisScores:
    coverage: float
    precision: float
    code_identity_coverage: float
    code_identity_precision: float
    json_valid: float
    num_unique_diagnoses: float

    def weighted(self, weights: Mapping[str, float]) -> float:
        return sum(weights[f"{name}_score"] * value for name, value in asdict(self).items())


def _key(code: str, status: str) -> Key:
    return icd10.normalize(code), status.strip().lower()


def score_diagnoses(
    recorded: Sequence[Key], gold: Sequence[Key], aliases: Mapping[str, str] | None = None
) -> DiagnosisScores:
    """Score recorded (code, status) pairs against the gold pairs; ``aliases`` maps each
    acceptable code to the gold code it stands for."""
    same = {icd10.normalize(k): icd10.normalize(v) for k, v in (aliases or {}).items()}
    keys = (_key(c, s) for c, s in recorded)
    rec = list(dict.fromkeys((same.get(code, code), status) for code, status in keys))
    gold_keys = list(dict.fromkeys(_key(c, s) for c, s in gold))
    gold_set, rec_set = set(gold_keys), set(rec)
    gold_codes, rec_codes = {c for c, _ in gold_keys}, {c for c, _ in rec}
    n_gold, n_rec = len(gold_keys), len(rec)
    if n_gold == 0:
        raise ValueError("a case needs at least one gold diagnosis")

    def frac(hits: int, total: int) -> float:
        return hits / total if total else 0.0

    return DiagnosisScores(
        coverage=frac(len(gold_set & rec_set), n_gold),
        precision=frac(sum(k in gold_set for k in rec), n_rec),
        code_identity_coverage=frac(sum(c in rec_codes for c, _ in gold_keys), n_gold),
        code_identity_precision=frac(sum(c in gold_codes for c, _ in rec), n_rec),
        json_valid=1.0 if n_rec else 0.0,
        num_unique_diagnoses=min(1.0, n_rec / n_gold),
    )


def resolve_weights(weights: Mapping[str, float] | str | None) -> dict[str, float]:
    """A full weight table from a preset name or a partial mapping (missing names keep defaults)."""
    if isinstance(weights, str):
        if weights not in WEIGHT_PRESETS:
            raise ValueError(
                f"weights={weights!r} is not a preset; use one of {', '.join(WEIGHT_PRESETS)} "
                f"or a mapping over {', '.join(DEFAULT_WEIGHTS)}"
            )
        return dict(WEIGHT_PRESETS[weights])
    return override_weights(DEFAULT_WEIGHTS, weights)


# --- reward functions: the metric name is the function name -----------------------------------


@once_per_rollout
def _scores(state: Any, info: Mapping[str, Any]) -> DiagnosisScores:
    records = state["clinical"]["recorded"]
    gold = [(g["icd10_code"], g["status"]) for g in info["gold"]]
    aliases = {a: g["icd10_code"] for g in info["gold"] for a in g.get("acceptable_codes") or ()}
    return score_diagnoses([(r["icd10_code"], r["status"]) for r in records], gold, aliases)


def coverage_score(state: Any, info: Mapping[str, Any]) -> float:
    """1.0 when every gold diagnosis was recorded with the right code and status."""
    return _scores(state, info).coverage


def precision_score(state: Any, info: Mapping[str, Any]) -> float:
    """1.0 when every recorded diagnosis is a gold one (code and status); 0 if none recorded."""
    return _scores(state, info).precision


def code_identity_coverage_score(state: Any, info: Mapping[str, Any]) -> float:
    """1.0 when every gold code was recorded, whatever the status."""
    return _scores(state, info).code_identity_coverage


def code_identity_precision_score(state: Any, info: Mapping[str, Any]) -> float:
    """1.0 when every recorded code is a gold code, whatever the status; 0 if none recorded."""
    return _scores(state, info).code_identity_precision


def json_valid_score(state: Any, info: Mapping[str, Any]) -> float:
    """1.0 when at least one set_diagnosis call was accepted and recorded."""
    return _scores(state, info).json_valid


def num_unique_diagnoses_score(state: Any, info: Mapping[str, Any]) -> float:
    """min(1, unique recorded diagnoses / number of gold diagnoses)."""
    return _scores(state, info).num_unique_diagnoses


REWARD_FUNCS = (
    coverage_score,
    precision_score,
    code_identity_coverage_score,
    code_identity_precision_score,
    json_valid_score,
    num_unique_diagnoses_score,
)
