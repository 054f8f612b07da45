"""cmd.exe and PowerShell commands as the POSIX commands of the same effect.

The effects of ``rm``, ``cp``, ``mv``, ``mkdir``, ``cat``, ``echo > f`` and
``tee`` are inferred once, in :mod:`.effects`; a Windows command is
translated to them:

=================================================  ===============================
cmd.exe                                            POSIX
=================================================  ===============================
``del`` / ``erase`` ``/f /q a b``                  ``rm a b``
``rd`` / ``rmdir /s /q d``                         ``rm -r d``
``copy /y a b``, ``xcopy /s /e /i a b``            ``cp a b``, ``cp -r a b``
``move /y a b``, ``ren a b.txt``                   ``mv a b``, ``mv a DIR/b.txt``
``md`` / ``mkdir a\\b``                             ``mkdir -p a/b``
``type a``, ``type nul > f``                       ``cat a``, ``true > f``
``cd /d c:\\app``, ``pushd``, ``popd``              ``cd c:/app``, ...
=================================================  ===============================

PowerShell cmdlets and their aliases (``rm``, ``del``, ``ri``, ``cp``,
``mv``, ``ren``, ``gc``, ``cat``, ``type``, ``sc``, ``ac``, ``ni``, ``sl``):
``Remove-Item [-Recurse]``, ``Copy-Item``, ``Move-Item``, ``Rename-Item
-NewName``, ``New-Item -ItemType File|Directory [-Value]``, ``Set-Content``
/ ``Add-Content`` with ``-Value`` (``echo v > f`` / ``>> f``) or from the
pipeline (``sponge [-a] f``), ``Out-File [-Append]``, ``Tee-Object``,
``Clear-Content``, ``Get-Content [-TotalCount N]``, ``Write-Output``,
``Set-Location``, ``Push-Location``, ``Pop-Location``, ``Invoke-WebRequest``
/ ``Invoke-RestMethod -OutFile`` (``curl -o``), ``Compress-Archive``
(``zip``), ``Expand-Archive`` (``unzip``: an unknown effect).  Parameters bind by name
(any unambiguous prefix, ``-Path:x`` too) or position; the value of a common
parameter (``-ErrorAction SilentlyContinue``) is no path, nor is an item of
a drive that holds no files (``Remove-Item Env:\\VAR``).  ``$name = 'text'``
assigns a variable later words may use (``Set-Content $path``); a value that
is not a string literal (``Join-Path ...``, a here-string) is known only at
run time.

Other programs (``npm``, ``git``, ``python``) pass through, with backslashes
in path arguments turned into slashes.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.parser import Command, Lit, Opaque, Redirect, Var, Word

__all__ = ["POWERSHELL_VARIABLE", "translate"]

# PowerShell variables live apart from bash's: `$Path` and `$path` are one variable.
POWERSHELL_VARIABLE = "powershell_"

# `$env:Path`, `$global:count`: a variable of a scope or a provider drive.
_SCOPED_VARIABLE = lazy_pattern(r"^\$(?:env|global|script|local|private|using|variable):\w+$", re.I)
_ASSIGNMENT_OPERATORS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "??="})
_PATHLIKE = lazy_pattern(r"^(?:[A-Za-z]:)?[^\s(){};=|<>\"']*\\[^\s(){};=|<>\"']*$")


def _lit(text: str) -> Word:
    return Word((Lit(text),), text)


def _slashes(word: Word) -> Word:
    """A path argument with forward slashes (``src\\app.py`` -> ``src/app.py``)."""
    parts = tuple(
        Lit(p.text.replace("\\", "/"), p.quoted) if isinstance(p, Lit) else p for p in word.parts
    )
    return Word(parts, word.raw)


def _name(word: Word) -> str | None:
    value = word.literal
    if value is None:
        return None
    base = value.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return base.removesuffix(".exe")


def _command(argv: Sequence[Word | str], redirects: tuple[Redirect, ...], raw: str) -> Command:
    words = tuple(_lit(w) if isinstance(w, str) else w for w in argv)
    return Command(words, (), redirects, raw)


def translate(
    words: list[Word], redirects: tuple[Redirect, ...], raw: str, dialect: str
) -> Command:
    """One cmd.exe or PowerShell command as the POSIX command of the same effect."""
    invoked = False
    while words and words[0].literal in (
        "&",
        "@",
        ".",
    ):  # call operator, echo-off prefix, dot-sourcing
        invoked = invoked or words[0].literal != "@"
        words = words[1:]
    if not words:
        return _command([], redirects, raw)
    if dialect == "powershell" and (assignment := _assignment(words, redirects, raw)) is not None:
        return assignment
    if dialect == "powershell" and not invoked and _quoted_string(words[0]):
        # A statement that is a quoted string is an expression PowerShell prints
        # (`"=== step ==="`); only `&` or `.` runs a program named by a string.
        return _command(["echo", *words], redirects, raw)
    if words[0].literal is not None and words[0].literal.startswith("@"):
        words = [_lit(words[0].literal[1:]), *words[1:]]
    name = _name(words[0])
    args = words[1:]
    if dialect == "powershell":
        translated = _powershell(name, args, redirects, raw)
        if translated is not None:
            return translated
    else:
        translated = _cmd(name, args, redirects, raw)
        if translated is not None:
            return translated
    return _command(
        [_slashes(words[0]), *(_slashes(a) if _PATHLIKE.match(a.raw) else a for a in args)],
        redirects,
        raw,
    )


def _quoted_string(word: Word) -> bool:
    return bool(word.parts) and all(isinstance(p, Lit) and p.quoted for p in word.parts)


def _assignment(words: list[Word], redirects: tuple[Redirect, ...], raw: str) -> Command | None:
    """``$name = value``: the variable holds a string literal; anything else is known only at run time.

    ``$name += value`` (and the other compound operators) leaves a value known only
    at run time; ``$env:NAME = value`` and the other scoped variables change no file
    and are not tracked.
    """
    operator = words[1].literal if len(words) >= 2 else None
    if _SCOPED_VARIABLE.match(words[0].raw) and operator in _ASSIGNMENT_OPERATORS:
        return Command((), (), redirects, raw)
    first = words[0].parts
    if not first or not isinstance(first[0], Var):
        return None
    name = first[0].name
    if len(first) == 1 and operator in _ASSIGNMENT_OPERATORS and operator != "=":
        return Command((), ((name, Word((Opaque(raw),), raw)),), redirects, raw)
    if len(first) == 1 and operator == "=":
        value = words[2:]
    elif len(first) >= 2 and isinstance(first[1], Lit) and first[1].text.startswith("="):
        rest = (Lit(first[1].text[1:], first[1].quoted), *first[2:])
        value = [Word(rest, words[0].raw.split("=", 1)[1]), *words[1:]]
    else:
        return None
    known = len(value) == 1 and all(isinstance(p, Lit) for p in value[0].parts)
    held = _slashes(value[0]) if known else Word((Opaque(raw),), raw)
    return Command((), ((name, held),), redirects, raw)


# ---------------------------------------------------------------------------
# cmd.exe


def _switches(args: list[Word]) -> tuple[set[str], list[Word]]:
    """``/s /q`` switches (lower case, without the slash and any ``:value``) and the other arguments."""
    switches: set[str] = set()
    rest: list[Word] = []
    for arg in args:
        value = arg.literal
        if (
            value is not None
            and re.match(r"^/[A-Za-z?-]", value)
            and "/" not in value[1:]
            and "\\" not in value
        ):
            switches.add(value[1:].split(":", 1)[0].lower())
        else:
            rest.append(_slashes(arg))
    return switches, rest


def _cmd(
    name: str | None, args: list[Word], redirects: tuple[Redirect, ...], raw: str
) -> Command | None:
    switches, rest = _switches(args)
    if name in ("cd", "chdir", "pushd"):
        if not rest:
            return _command(["true"], redirects, raw)  # prints the directory
        return _command(["pushd" if name == "pushd" else "cd", rest[0]], redirects, raw)
    if name in ("del", "erase"):
        if "s" in switches:  # matching files in every subdirectory: known only at run time
            return _command(["rm", *(Word((Opaque(a.raw),), a.raw) for a in rest)], redirects, raw)
        return _command(["rm", "-f", *rest], redirects, raw)
    if name in ("rd", "rmdir"):
        # What it names is a directory: the trailing slash says so to rm.
        directories = [_slashed_directory(a) for a in rest]
        return _command(
            ["rm", "-r", *directories] if "s" in switches else ["rmdir", *rest], redirects, raw
        )
    if name == "copy":
        return _command(["cp", *rest] if len(rest) > 1 else ["cp", *rest, "."], redirects, raw)
    if name == "xcopy":
        return _command(["cp", "-r", *rest], redirects, raw)
    if name == "move":
        return _command(["mv", *rest], redirects, raw)
    if name in ("ren", "rename"):
        return _rename(rest, redirects, raw)
    if name in ("md", "mkdir"):
        return _command(["mkdir", "-p", *rest], redirects, raw)
    if name == "type":
        if [a.literal.lower() if a.literal else None for a in rest] == ["nul"]:
            return _command(["true"], redirects, raw)  # `type nul > f` makes f empty
        return _command(["cat", *rest], redirects, raw)
    if name in ("echo", "echo."):
        # cmd's echo prints the rest of the line as typed, quotes included.
        text = " ".join(a.raw for a in args)
        if text.strip().lower() in ("on", "off"):
            return _command(["true"], (), raw)
        return _command(["printf", "%s\n", text], redirects, raw)
    if name in ("timeout", "cls", "pause", "title", "color", "ver", "popd"):
        return _command(["popd"] if name == "popd" else ["true"], redirects, raw)
    return None


def _slashed_directory(word: Word) -> Word:
    value = word.literal
    return _lit(value.rstrip("/") + "/") if value is not None else word


def _rename(rest: list[Word], redirects: tuple[Redirect, ...], raw: str) -> Command:
    if len(rest) != 2 or rest[0].literal is None or rest[1].literal is None:
        return _command(["mv", *rest], redirects, raw)
    directory = posixpath.dirname(rest[0].literal)
    return _command(["mv", rest[0], posixpath.join(directory, rest[1].literal)], redirects, raw)


# ---------------------------------------------------------------------------
# PowerShell

_ALIASES = {
    "iwr": "invoke-webrequest",
    "irm": "invoke-restmethod",
    "rm": "remove-item",
    "del": "remove-item",
    "erase": "remove-item",
    "ri": "remove-item",
    "rmdir": "remove-item",
    "rd": "remove-item",
    "cp": "copy-item",
    "copy": "copy-item",
    "cpi": "copy-item",
    "mv": "move-item",
    "move": "move-item",
    "mi": "move-item",
    "ren": "rename-item",
    "rni": "rename-item",
    "cat": "get-content",
    "type": "get-content",
    "gc": "get-content",
    "sc": "set-content",
    "ac": "add-content",
    "ni": "new-item",
    "md": "mkdir",
    "echo": "write-output",
    "write": "write-output",
    "cd": "set-location",
    "sl": "set-location",
    "chdir": "set-location",
    "pushd": "push-location",
    "popd": "pop-location",
    "tee": "tee-object",
}

# cmdlet -> (its parameters in positional order, switch parameters)
_PARAMETERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "remove-item": (("path",), ("recurse", "force")),
    "copy-item": (("path", "destination"), ("recurse", "force", "container")),
    "move-item": (("path", "destination"), ("force",)),
    "rename-item": (("path", "newname"), ("force",)),
    "new-item": (("path", "name", "value", "itemtype", "type"), ("force",)),
    "mkdir": (("path", "name"), ("force",)),
    "set-content": (("path", "value", "encoding"), ("force", "nonewline")),
    "add-content": (("path", "value", "encoding"), ("force", "nonewline")),
    "out-file": (
        ("filepath", "encoding", "inputobject", "width"),
        ("append", "force", "nonewline"),
    ),
    # -Variable names a variable, not a file: bound here so its value is no path.
    "tee-object": (("filepath", "inputobject", "variable"), ("append",)),
    "clear-content": (("path",), ("force",)),
    "get-content": (("path", "totalcount", "head", "tail", "encoding"), ("raw", "wait")),
    "set-location": (("path",), ()),
    "push-location": (("path",), ()),
    "write-output": ((), ("noenumerate",)),
    "invoke-webrequest": (("uri", "outfile", "method", "body", "headers"), ("usebasicparsing",)),
    "invoke-restmethod": (("uri", "outfile", "method", "body", "headers"), ()),
    "expand-archive": (("path", "destinationpath"), ("force",)),
    "compress-archive": (("path", "destinationpath", "compressionlevel"), ("force", "update")),
}
# Parameters this model does not bind that take a value (`-ErrorAction SilentlyContinue`).
_VALUED_PARAMETERS = frozenset(
    {
        "erroraction",
        "ea",
        "warningaction",
        "wa",
        "informationaction",
        "infa",
        "errorvariable",
        "ev",
        "warningvariable",
        "wv",
        "informationvariable",
        "iv",
        "outvariable",
        "ov",
        "outbuffer",
        "ob",
        "pipelinevariable",
        "pv",
        "filter",
        "include",
        "exclude",
        "credential",
        "stream",
        "delimiter",
        "readcount",
    }
)
# PowerShell drives that hold no files: `Remove-Item Env:\VAR` unsets a variable.
_NOT_FILES = lazy_pattern(r"^(?:env|variable|function|alias|hklm|hkcu|cert|wsman|registry):", re.I)
_ALIAS_PARAMETERS = {
    "literalpath": "path",
    "lp": "path",
    "pspath": "path",
    "fullname": "path",
    "file": "filepath",
    "first": "totalcount",
    "head": "totalcount",
    "last": "tail",
    "type": "itemtype",
    "dest": "destination",
    "r": "recurse",
}


def _bind(cmdlet: str, args: list[Word]) -> dict[str, list[Word]]:
    """PowerShell parameter binding: named (an unambiguous prefix, ``-Name:value``) then positional."""
    positional_names, switches = _PARAMETERS[cmdlet]
    names = (*positional_names, *switches)
    bound: dict[str, list[Word]] = {}
    positional: list[Word] = []
    i = 0
    while i < len(args):
        arg = args[i]
        value = arg.literal
        i += 1
        if value is None or not value.startswith("-") or len(value) < 2 or value[1].isdigit():
            positional.append(arg)
            continue
        given, _, attached = value[1:].partition(":")
        given = _ALIAS_PARAMETERS.get(given.lower(), given.lower())
        matches = [n for n in names if n == given] or [n for n in names if n.startswith(given)]
        if len(matches) != 1:
            # A common parameter (-ErrorAction, -Verbose) or one this model does not need:
            # the value of one that takes a value is no path either.
            if not attached and given in _VALUED_PARAMETERS and i < len(args):
                i += 1
            continue
        name = matches[0]
        if name in switches:
            bound[name] = []
        elif attached:
            bound.setdefault(name, []).append(_lit(attached))
        elif i < len(args):
            bound.setdefault(name, []).append(args[i])
            i += 1
    free = [n for n in positional_names if n not in bound]
    for name, arg in zip(free, positional, strict=False):
        bound[name] = [arg]
    if len(positional) > len(free) and free[:1] == ["path"] and "path" in bound:
        bound["path"] = positional[
            : len(positional) - len(free) + 1
        ]  # `Remove-Item a b` is not PowerShell, but agents write it
    return bound


def _powershell(
    name: str | None, args: list[Word], redirects: tuple[Redirect, ...], raw: str
) -> Command | None:
    cmdlet = _ALIASES.get(name or "", name or "")
    if cmdlet not in _PARAMETERS and cmdlet not in ("pop-location", "out-null", "write-host"):
        return None
    if cmdlet in ("invoke-webrequest", "invoke-restmethod"):
        # A download: the file -OutFile names, else only output (`curl -o F` / `curl`).
        out = _bind(cmdlet, args).get("outfile", [])
        download: list[Word | str] = ["curl"]
        if out:
            download += ["-o", _slashes(out[0])]
        return _command(download, redirects, raw)
    if cmdlet == "expand-archive":  # unpacks files it does not name (`unzip`)
        return _command(["unzip", "-o", *_bind(cmdlet, args).get("path", [])[:1]], redirects, raw)
    if cmdlet == "compress-archive":
        bound_archive = _bind(cmdlet, args)
        archive = [_slashes(w) for w in bound_archive.get("destinationpath", [])[:1]]
        return (
            _command(["zip", *archive, *bound_archive.get("path", [])], redirects, raw)
            if archive
            else None
        )
    if cmdlet == "pop-location":
        return _command(["popd"], redirects, raw)
    if cmdlet in ("out-null", "write-host"):
        return _command(["true"], redirects, raw)
    bound = {k: [_slashes(w) for w in v] for k, v in _bind(cmdlet, args).items()}
    paths = bound.get("path", []) or bound.get("filepath", [])
    if any(_NOT_FILES.match(p.raw) for p in paths):
        paths = [p for p in paths if not _NOT_FILES.match(p.raw)]
        if not paths:
            return _command(["true"], redirects, raw)
    if not paths and cmdlet in (
        "remove-item",
        "copy-item",
        "move-item",
        "rename-item",
        "set-content",
        "add-content",
        "clear-content",
    ):
        paths = [
            Word((Opaque("(the pipeline's items)"),), "(the pipeline's items)")
        ]  # known only at run time
    if cmdlet == "remove-item":
        if "recurse" in bound:  # what -Recurse removes is a directory
            return _command(
                ["rm", "-r", "-f", *(_slashed_directory(p) for p in paths)], redirects, raw
            )
        return _command(["rm", "-f", *paths], redirects, raw)
    if cmdlet in ("copy-item", "move-item"):
        program = (
            ["cp", *(["-r"] if "recurse" in bound else [])] if cmdlet == "copy-item" else ["mv"]
        )
        destination = bound.get("destination", [_lit(".")])
        return _command([*program, *paths, *destination], redirects, raw)
    if cmdlet == "rename-item":
        return _rename([*paths, *bound.get("newname", [])], redirects, raw)
    if cmdlet == "mkdir" or (cmdlet == "new-item" and _item_type(bound) == "directory"):
        return _command(["mkdir", "-p", *_joined(paths, bound.get("name"))], redirects, raw)
    if cmdlet == "new-item":
        target = _joined(paths, bound.get("name"))
        if "value" in bound:
            return _command(
                ["printf", "%s", *bound["value"][:1]], (*redirects, *_to(">", target)), raw
            )
        return _command(
            ["true"] if "force" in bound else ["touch", *target],
            (*redirects, *(_to(">", target) if "force" in bound else ())),
            raw,
        )
    if cmdlet in ("set-content", "add-content", "out-file", "tee-object"):
        append = cmdlet == "add-content" or "append" in bound
        value = bound.get("value") or bound.get("inputobject")
        if value is not None:
            line = "%s" if "nonewline" in bound else "%s\n"
            return _command(
                ["printf", line, *value[:1]],
                (*redirects, *_to(">>" if append else ">", paths)),
                raw,
            )
        if cmdlet == "tee-object":
            return _command(["tee", *(["-a"] if append else []), *paths], redirects, raw)
        return _command(["sponge", *(["-a"] if append else []), *paths[:1]], redirects, raw)
    if cmdlet == "clear-content":
        return _command(["true"], (*redirects, *_to(">", paths)), raw)
    if cmdlet == "get-content":
        count = bound.get("totalcount")
        if count and count[0].literal and count[0].literal.isdigit():
            return _command(["head", "-n", count[0].literal, *paths], redirects, raw)
        return _command(["cat", *paths], redirects, raw)
    if cmdlet in ("set-location", "push-location"):
        where = "pushd" if cmdlet == "push-location" else "cd"
        return _command([where, *paths[:1]] if paths else ["true"], redirects, raw)
    return _command(
        ["printf", "%s\n", *args[:1]] if args else ["true"], redirects, raw
    )  # write-output


def _item_type(bound: dict[str, list[Word]]) -> str | None:
    kinds = bound.get("itemtype") or bound.get("type") or []
    return kinds[0].literal.lower() if kinds and kinds[0].literal else None


def _joined(paths: list[Word], names: list[Word] | None) -> list[Word]:
    """``New-Item -Path dir -Name file``: the item is dir/file."""
    if not names:
        return paths
    name = names[0]
    if not paths:
        return [name]
    if paths[0].literal is None or name.literal is None:
        return [Word((Opaque(f"{paths[0].raw}/{name.raw}"),), f"{paths[0].raw}/{name.raw}")]
    return [_lit(posixpath.join(paths[0].literal, name.literal))]


def _to(op: str, paths: list[Word]) -> tuple[Redirect, ...]:
    return tuple(Redirect(op, target=path) for path in paths[:1])
