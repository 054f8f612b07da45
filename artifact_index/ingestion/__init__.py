"""Ingestion: a transcript file in, normalized events out.

``source`` reads bytes (gzip, JSON document or JSON lines) and never loses a
readable record; ``adapters`` holds one module per transcript format and the
registry that detects formats from content; ``events`` is the format-agnostic
event model every adapter produces; ``vocabulary`` maps the tool names of
every agent to file operations; ``patches`` parses patch envelopes and
unified diffs into operations; ``loading`` ties them together.
"""
