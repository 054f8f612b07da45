"""What shell commands (and the scripts they run) did to files.

Many agents change files only through a shell: ``cat <<'EOF' > f``,
``sed -i``, ``rm``, ``mv``, ``git checkout``, ``python fix.py``.  This
package parses each command with tree-sitter-bash (never regular
expressions over the command text) and infers its file effects as
:class:`~artifact_index.ingestion.events.FileOperation` values with
``source="shell"`` (``"patch"`` for ``git apply`` / ``patch``).

Modules, one concept each:

* :mod:`.parser`: command text -> typed model (simple commands, words,
  redirections, heredocs, lists, pipelines, subshells, loops).
* :mod:`.expand`: words -> arguments (quoting, variables, braces, globs).
* :mod:`.state`: path placement (workspace / scratch / device) and what the
  command itself has written so far.
* :mod:`.invocation`: one expanded simple command and the helpers effect
  handlers share.
* :mod:`.effects`: a simple command -> its file effects.
* :mod:`.sed`: ``sed`` scripts applied to text whose content is known.
* :mod:`.git`: ``git`` subcommands -> working-tree effects.
* :mod:`.scripts`: Python / JavaScript programs -> file effects.
* :mod:`.analysis`: the walk over a whole command: success rule, ``cd``,
  redirections; :func:`analyze_command` is the entry point.
* :mod:`.wrappers`: the one table of programs that run another command
  (``sudo``, ``timeout``, ``uv run``, ``npx``).
* :mod:`.simple_commands`: a command line's simple commands as words, for
  readers that only ask which programs it runs (the error checks).
* :mod:`.searches`: whether a command line searches file contents (the
  summary's searches).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from artifact_index.shell.analysis import ShellAnalysis, analyze_command
    from artifact_index.shell.state import ShellContext

__all__ = ["ShellAnalysis", "ShellContext", "analyze_command"]


def __getattr__(name: str) -> object:
    # The package's names are imported when first asked for: a reader of one of its modules
    # (the error checks read commands with :mod:`.simple_commands`) would otherwise pay for the
    # whole analysis, every effect handler and script reader, at its own import.
    if name in ("ShellAnalysis", "analyze_command"):
        from artifact_index.shell import analysis

        return getattr(analysis, name)
    if name == "ShellContext":
        from artifact_index.shell.state import ShellContext

        return ShellContext
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
