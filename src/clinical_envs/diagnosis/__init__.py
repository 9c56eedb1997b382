"""set-diagnosis: recording rules, dataset loading and prompts (no verifiers import)."""
