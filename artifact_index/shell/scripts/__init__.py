"""Scripts -> file effects, read from their code with tree-sitter.

Agents often change files by writing a small program and running it
(``python fix.py``, ``python - <<'EOF'``, ``python -c '...'``, ``node -e``).
This package walks such a program in statement order with a tiny abstract
interpreter that knows only strings: literals, names assigned from them,
f-strings / template strings, ``+``, ``os.path.join``, ``pathlib`` ``/``,
``for`` loops over literal lists, imports and aliases, and user functions
called with such values.  The calls that touch files become operations:

* Python: ``open(p, 'w'|'a'|'x'|'r+'...)``, ``Path(p).write_text/
  write_bytes/unlink/rename/replace/touch/read_text``, ``os.remove/unlink/
  rename/replace/symlink``, ``shutil.move/copy/copy2/copyfile/copytree/
  rmtree``, ``savefig``/``to_csv``-style writers, ``os.system`` and
  ``subprocess`` commands (analyzed as shell commands).
* JavaScript: ``fs.writeFileSync/appendFileSync/unlinkSync/rmSync/
  renameSync/copyFileSync/readFileSync`` (and their async and
  ``fs/promises`` forms), ``child_process.execSync``.

A call that changes a file whose path cannot be resolved becomes an
``unknown`` operation saying so; nothing is guessed.  Reads through an
unresolved path are dropped (they change nothing).

The interpreter's values and the walk both languages share are in
:mod:`.interpreter`; each language's calls in :mod:`.python` and
:mod:`.javascript`.
"""

from __future__ import annotations

from artifact_index.shell.scripts.javascript_effects import javascript_effects
from artifact_index.shell.scripts.python_effects import python_effects

__all__ = ["javascript_effects", "python_effects"]
