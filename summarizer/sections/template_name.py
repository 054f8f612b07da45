"""The template every surface that writes a summary uses unless told otherwise.

Its own module so that building the command line (the default of ``--template``) does
not import the template models, and pydantic with them, for every command.
"""

from __future__ import annotations

__all__ = ["DEFAULT_TEMPLATE"]

# The template of every surface that writes a summary (summary, compact, the servers, MCP), unless
# told otherwise: written for the agent that continues right after the compaction.
DEFAULT_TEMPLATE = "default"
