"""Evaluating a summary against what the index knows (probes)."""
