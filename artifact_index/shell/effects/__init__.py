"""A simple command -> its file effects.

One module per family of commands: :mod:`.output` (``echo``, ``printf``,
``cat`` and the readers), :mod:`.editors` (``sed -i``, ``perl -pi``, ``patch``...),
:mod:`.files` (``rm``, ``mv``, ``cp``, ``touch``, ``tee``...), and
:mod:`.dispatch`, which finds the program behind its wrappers, looks up its
handler, and runs the commands that run other commands.

:func:`command_effects` looks at the program (after wrappers such as
``sudo``, ``env X=1``, ``timeout 10``, ``uv run``) and returns the file
operations it performs and, for the few programs whose output is known
(``echo``, ``printf``, ``cat`` of a heredoc or of known files, ``tee``), its
standard output, which the caller writes to redirection targets or feeds to
the next command of a pipeline.

Decisions:

* Reads are ``cat``, ``head``, ``tail``, ``nl``, ``less``, ``more``, ``bat``,
  ``tac``, ``sed`` without ``-i`` and ``awk`` on named files.  ``grep``/``rg``
  are searches, not reads (Claude Code's read-state makes the same call).
* ``touch`` creates an empty file only when the file is not known to exist;
  on a known file it changes nothing the trail cares about.
* ``mkdir`` has no file effect; the directory is remembered so a later
  ``mv x DIR`` moves into it.
* Programs that are not file editors (``pytest``, ``make``, ``npm test``)
  have no effect and are not reported as unknown.  Package managers,
  formatters, generators and project scripts change files they often do not
  name: :mod:`.packages`, :mod:`.formatters` and :mod:`.generators` record
  what can be known and flag the rest as ``unknown``.  A script run by an interpreter
  is different: its effects are inferred from its text
  (:mod:`.scripts`), and when the text is not known the command gets an
  ``unknown`` operation saying so.
* ``xargs CMD`` and ``find -exec CMD {}`` run ``CMD`` with arguments known
  only at run time: editing commands among them become ``unknown``.
* A failed command changes nothing (an ``rm`` that failed deleted nothing),
  with two exceptions: a failed ``rm`` of several paths removed those known
  to exist (rm carries on past a missing operand), and a failed ``bash -c``
  script is analyzed with the list rule of :mod:`.analysis`.
"""

from __future__ import annotations

from artifact_index.shell.effects.dispatch import command_effects
from artifact_index.shell.effects.effect import UNNAMED_READ, Effect

__all__ = ["UNNAMED_READ", "Effect", "command_effects"]
