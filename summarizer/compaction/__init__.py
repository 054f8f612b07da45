"""Compacting a live context: the compactor, its policies, request bodies and the compaction event log."""
