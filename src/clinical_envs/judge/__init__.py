"""An optional LLM judge beside the rule grader (``grader="judge"`` or ``"both"``)."""

from clinical_envs.judge.combine import combine, judge_disagreement
from clinical_envs.judge.judge import GRADERS, PROMPT_VERSION, Judge, JudgeSettings, judge_settings
from clinical_envs.judge.verdict import VerdictError, parse_verdict

__all__ = [
    "GRADERS",
    "PROMPT_VERSION",
    "Judge",
    "JudgeSettings",
    "VerdictError",
    "combine",
    "judge_disagreement",
    "judge_settings",
    "parse_verdict",
]
