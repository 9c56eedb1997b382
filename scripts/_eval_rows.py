"""Print how many rows an environment evaluates: python scripts/_eval_rows.py ENV_ID ARGS_JSON.

Used by eval.sh to say so when ``-n`` asks for more rows than the eval split has.
"""

import json
import sys

import verifiers as vf
from datasets.utils import logging as datasets_logging

datasets_logging.disable_progress_bar()
env = vf.load_environment(sys.argv[1], **json.loads(sys.argv[2]))
print(len(env.get_eval_dataset()))  # the eval split, or the train rows when there is none
