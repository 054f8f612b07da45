"""SWE-agent trajectories (``.traj``): the 0.x ACI and the 1.x tool bundles.

A trajectory is one JSON document ``{"environment", "trajectory": [step...],
"history": [message...], "info": {...}}``.  Each step holds the model's
``thought``, the ``action`` it ran and the ``observation`` it got back, plus
a ``state`` (working directory, open file and, with the ``diff_state`` tool,
the repository's whole ``git diff`` after the step).

Actions are command lines run in one persistent bash session, so the tool
has to be read out of the text:

* the 0.x / windowed ACI: ``open PATH [LINE]``, ``goto``, ``scroll_up`` and
  ``scroll_down`` read the *open file*; ``create PATH`` creates and opens a
  file; ``edit N:M`` ... ``end_of_edit`` replaces lines of the open file, and
  the windowed variants ``edit 'SEARCH' 'REPLACE'`` and ``insert 'TEXT'``
  change it too; ``search_file`` reads it; ``find_file``, ``search_dir`` and
  ``submit`` touch nothing;
* 1.x ``str_replace_editor SUB PATH --flag VALUE`` with shell-quoted values;
* anything else is a shell command, left to the shell module.

Function-calling runs also record the OpenAI ``tool_calls`` in ``history``;
their JSON arguments are exact, so they are preferred over re-parsing the
command line.  Steps are numbered from 1 in ``line``.

The package: the adapter here, :mod:`.reader` (steps to events),
:mod:`.commands` (the tools in the action text) and :mod:`.diff_state` (the
repository's diff after each step).
"""

from __future__ import annotations

from collections.abc import Iterator

from artifact_index.ingestion.adapters import register
from artifact_index.ingestion.adapters.base import Adapter
from artifact_index.ingestion.adapters.swe_agent.actions import split_commands
from artifact_index.ingestion.adapters.swe_agent.diff_state import diff_changes
from artifact_index.ingestion.adapters.swe_agent.trajectory_reader import Reader
from artifact_index.ingestion.events import Event
from artifact_index.ingestion.source import Source

__all__ = ["SweAgentAdapter", "diff_changes", "split_commands"]


@register
class SweAgentAdapter(Adapter):
    name = "swe-agent"
    description = (
        "SWE-agent .traj trajectories (0.x ACI, 1.x str_replace_editor / function calling)"
    )
    priority = 20

    def sniff(self, source: Source) -> bool:
        doc = source.document
        if not isinstance(doc, dict) or not isinstance(doc.get("trajectory"), list):
            return False
        if not ({"history", "info", "environment"} & doc.keys()):
            return False
        steps = doc["trajectory"]
        return not steps or any(isinstance(step, dict) and "action" in step for step in steps[:5])

    def events(self, source: Source) -> Iterator[Event]:
        doc = source.document
        if not isinstance(doc, dict) or not isinstance(doc.get("trajectory"), list):
            source.skip(None, "not a SWE-agent trajectory (no 'trajectory' list)")
            return
        yield from Reader(source, doc).events()
