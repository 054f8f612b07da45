"""The known files a ``find`` search matches, for the command its ``-exec`` runs on each.

``find test/artifacts -name "*.yml" -exec sed -i 's/a/b/g' {} \\;`` edits every
YAML file there: those the trail knows are named, as a glob over them would
be. Only a search whose tests are all understood (``-name``, ``-iname``,
``-type``, ``-maxdepth``, ``-mindepth``, ``-print``) is answered; any other
test (``-newer``, ``-size``, ``-o``, ``!``) may leave out files the tests
keep, so then nothing is named.
"""

from __future__ import annotations

import fnmatch
import posixpath

from artifact_index.shell.invocation import Invocation, Runtime

__all__ = ["found_files", "search_roots"]

_GLOBAL_OPTIONS = {"-H", "-L", "-P"}
_ACTIONS = {"-exec", "-execdir", "-ok", "-okdir"}
_FLAGS = {"-print", "-print0", "-depth", "-xdev", "-mount", "-follow", "-noleaf"}


def search_roots(inv: Invocation) -> list[str] | None:
    """The folders a ``find`` command searches, placed; None when one cannot be."""
    words = [arg.value for arg in inv.args[1:]]
    k = 0
    while k < len(words) and words[k] in _GLOBAL_OPTIONS:
        k += 1
    roots: list[str] = []
    while k < len(words):
        word = words[k]
        if word is None:
            return None
        if word.startswith(("-", "(", "!")):
            break
        place = inv.place(word)
        if place is None:
            return None
        roots.append(place.rstrip("/") or "/")
        k += 1
    if roots:
        return roots
    here = inv.place(".")
    return [here.rstrip("/") or "/"] if here else None


def found_files(inv: Invocation, runtime: Runtime) -> list[str]:
    """Known files ``inv`` (a ``find`` command) matches, in the form they are known; [] when not known."""
    args = [arg.value for arg in inv.args[1:]]
    if any(value is None for value in args):
        return []
    words = [value for value in args if value is not None]
    k = 0
    while k < len(words) and words[k] in _GLOBAL_OPTIONS:
        k += 1
    starts: list[str] = []
    while k < len(words) and not words[k].startswith(("-", "(", "!")):
        starts.append(words[k])
        k += 1
    names: list[tuple[str, bool]] = []  # (pattern, ignoring case)
    kind: str | None = None
    depth = (0, 10**6)
    while k < len(words):
        word = words[k]
        if word in _ACTIONS:
            while k < len(words) and words[k] not in (";", "+"):
                k += 1
            k += 1
            continue
        if word in _FLAGS:
            k += 1
            continue
        if k + 1 >= len(words):
            return []
        value = words[k + 1]
        if word in ("-name", "-iname"):
            names.append((value, word == "-iname"))
        elif word == "-type" and value in ("f", "d"):
            kind = value
        elif word in ("-maxdepth", "-mindepth") and value.isdigit():
            depth = (depth[0], int(value)) if word == "-maxdepth" else (int(value), depth[1])
        else:
            return []  # a test not modelled: the matches are not known
        k += 2
    if kind == "d":
        return []
    found: list[str] = []
    for start in starts or ["."]:
        base = inv.place(start)
        if base is None:
            return []
        prefix = base.rstrip("/") + "/"
        for path in runtime.files.files_under(base):
            rest = path[len(prefix) :] if path.startswith(prefix) else None
            if rest is None or not depth[0] <= rest.count("/") + 1 <= depth[1]:
                continue
            if all(_matches(posixpath.basename(path), *name) for name in names):
                found.append(path)
    return sorted(dict.fromkeys(found))


def _matches(name: str, pattern: str, ignoring_case: bool) -> bool:
    if ignoring_case:
        return fnmatch.fnmatchcase(name.lower(), pattern.lower())
    return fnmatch.fnmatchcase(name, pattern)
