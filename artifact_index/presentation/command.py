"""The ``artifact-index`` console script: the command line, imported with the collector held off.

Importing the commands builds a few hundred thousand objects that all live as
long as the process; the cyclic garbage collections their allocation sets off
(about a hundred for a hook) find nothing to free and cost about a twentieth
of the start-up.  They are held off while the command line is imported, and
what was imported is then frozen
(:func:`~artifact_index.trail.collection.freeze_for_process`), so the collections the
command's own work sets off do not walk through it again.
"""

from __future__ import annotations

import gc

from artifact_index.trail.collection import freeze_for_process

__all__ = ["main"]


def main() -> int:
    collecting = gc.isenabled()
    gc.disable()
    try:
        from artifact_index.presentation.cli import main as run_command_line
    finally:
        freeze_for_process()
        if collecting:
            gc.enable()
    return run_command_line()
