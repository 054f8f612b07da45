"""Paths as git prints them.

Git C-quotes a path it prints when the path holds a byte that is not plain
ASCII, a double quote, a backslash or a control character (``core.quotePath``,
on by default): ``"docs/\\346\\227\\245.md"`` is ``docs/日.md``.  Read
unquoted, such a path is not the file's, and its backslashes even read as
Windows separators.  Every reader of git's output (status, diff listings,
merge and pull reports, patches) names the file by :func:`unquote_git_path`.
"""

from __future__ import annotations

__all__ = ["unquote_git_path"]

_ESCAPES = {"n": 10, "t": 9, "r": 13, '"': 34, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11}


def unquote_git_path(path: str) -> str:
    """``"dir/\\303\\251.txt"`` -> ``dir/é.txt``; a path git did not quote is returned unchanged.

    Bytes that do not decode as UTF-8 (a path git shortened in the middle of
    a character, ``"...\\201\\227.md"``) become U+FFFD.
    """
    if len(path) < 2 or path[0] != '"' or path[-1] != '"':
        return path
    raw = path[1:-1]
    out = bytearray()
    i = 0
    while i < len(raw):
        char = raw[i]
        if char == "\\" and i + 1 < len(raw):
            octal = raw[i + 1 : i + 4]
            if len(octal) == 3 and all(c in "01234567" for c in octal):
                out.append(int(octal, 8))
                i += 4
                continue
            out.append(_ESCAPES.get(raw[i + 1], ord(raw[i + 1]) & 0xFF))
            i += 2
            continue
        out.extend(char.encode("utf-8"))
        i += 1
    return out.decode("utf-8", errors="replace")
