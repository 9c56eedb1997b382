"""Pure scoring: transcript facts in, named scores out. Reward functions are thin adapters."""
