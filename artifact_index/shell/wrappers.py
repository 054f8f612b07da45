"""Wrappers: programs that run the command given after them (``sudo``, ``timeout 60``, ``uv run``, ``npx``).

One table serves both readers of a command: the effect inference (the
effects of ``sudo rm -rf build`` are ``rm``'s) and the error checks
(``timeout 300 uv run pytest -x`` runs the check ``pytest``).  Each wrapper
says which of its own options take a value, so the command after them is
found where the wrapper itself would find it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.expand import Arg
from artifact_index.shell.invocation import parse_options

__all__ = ["executable", "unwrap_args", "unwrap_words"]


@dataclass(frozen=True)
class _Wrapper:
    short_values: str = ""  # its one-letter options that take a value (`-n 10`, `-n10`)
    long_values: tuple[str, ...] = ()  # its long options that take a value (`--user root`)
    operands: int = 0  # its own operands before the command (timeout's duration)


_PLAIN = _Wrapper()
_UV_RUN = _Wrapper(
    short_values="pe",
    long_values=(
        "--with",
        "--python",
        "--project",
        "--directory",
        "--env-file",
        "--extra",
        "--group",
        "--package",
        "--from",
        "--index",
    ),
)
_CONDA_RUN = _Wrapper(short_values="np", long_values=("--name", "--prefix", "--cwd"))
_PACKAGE_RUNNER = _Wrapper(short_values="pc", long_values=("--package", "--call"))

# Wrappers named by one word.
_ONE_WORD: dict[str, _Wrapper] = {
    "sudo": _Wrapper(short_values="ugCDhprTUt", long_values=("--user", "--group")),
    "env": _Wrapper(short_values="uCS", long_values=("--unset", "--chdir")),
    "time": _PLAIN,
    "nohup": _PLAIN,
    "builtin": _PLAIN,
    "chronic": _PLAIN,
    "unbuffer": _PLAIN,
    "caffeinate": _PLAIN,
    "rtk": _PLAIN,
    "command": _PLAIN,
    "exec": _Wrapper(short_values="a"),
    "nice": _Wrapper(short_values="n", long_values=("--adjustment",)),
    "ionice": _Wrapper(short_values="cnp"),
    "stdbuf": _Wrapper(short_values="ioe"),
    "timeout": _Wrapper(short_values="sk", long_values=("--signal", "--kill-after"), operands=1),
    "gtimeout": _Wrapper(short_values="sk", long_values=("--signal", "--kill-after"), operands=1),
    "xvfb-run": _Wrapper(short_values="efnpsw"),
    "npx": _PACKAGE_RUNNER,
    "bunx": _PACKAGE_RUNNER,
    "uvx": _UV_RUN,
}

# Wrappers named by a program and its subcommand.
_TWO_WORD: dict[tuple[str, str], _Wrapper] = {
    **{(tool, "run"): _UV_RUN for tool in ("uv", "poetry", "pipenv", "pdm", "hatch", "rye")},
    **{(tool, "run"): _CONDA_RUN for tool in ("conda", "mamba", "micromamba")},
    **{
        (tool, sub): _PACKAGE_RUNNER
        for tool in ("pnpm", "yarn", "npm", "bun")
        for sub in ("exec", "dlx", "x")
    },
    ("pipx", "run"): _Wrapper(long_values=("--spec", "--python")),
    ("bundle", "exec"): _PLAIN,
    ("asdf", "exec"): _PLAIN,
    # `mise exec go@1.24 -- go test ./...`: the tools it activates come before `--`, the command after.
    ("mise", "exec"): _PLAIN,
    ("mise", "x"): _PLAIN,
}
_MISE = "mise"

_ENV_ASSIGNMENT = lazy_pattern(r"^[A-Za-z_][A-Za-z0-9_]*=")


def executable(word: str) -> str:
    """The program a word runs: ``/usr/bin/python3`` and ``pytest.exe`` name ``python3`` and ``pytest``."""
    # Called for every word a check or an effect looks at: the common word has no
    # separator and no extension, and costs two searches.
    name = word.rpartition("/")[2]
    if "\\" in name:
        name = name.rpartition("\\")[2]
    if "." in name and name[-4:].lower() in _WINDOWS_PROGRAM_SUFFIXES:
        return name[:-4]
    return name


_WINDOWS_PROGRAM_SUFFIXES = frozenset({".exe", ".cmd", ".bat"})


def unwrap_args(args: Sequence[Arg]) -> tuple[Arg, ...] | None:
    """The command a wrapper at ``args[0]`` runs, or None when ``args[0]`` is no wrapper.

    ``command -v x`` looks ``x`` up and runs nothing: its command is empty.
    """
    if not args or args[0].value is None:
        return None
    name = executable(args[0].value)
    wrapper = _ONE_WORD.get(name)
    skip = 1
    if wrapper is None and len(args) > 1 and args[1].value is not None:
        wrapper = _TWO_WORD.get((name, args[1].value))
        skip = 2
    if wrapper is None:
        return None
    if name == "rtk" and len(args) > 1 and args[1].value == "proxy":
        skip = 2  # `rtk proxy git status`: the command runs as it is, its output untouched
    if name == _MISE:
        # Without `--` it starts a shell: no command of its own is known.
        dashes = next((i for i, a in enumerate(args) if a.value == "--"), None)
        return tuple(args[dashes + 1 :]) if dashes is not None else ()
    rest = parse_options(
        args[skip:],
        short_values=wrapper.short_values,
        long_values=wrapper.long_values,
        stop_at_operand=True,
    )
    if name == "command" and rest.has("-v", "-V"):
        return ()
    operands = list(rest.operands[wrapper.operands :])
    if name == "env":
        while operands and _is_assignment(operands[0]):
            operands.pop(0)
    if wrapper is _PACKAGE_RUNNER:
        # npx prettier --write src: the package's program runs.
        operands = [a for a in operands if a.value != "--"]
    return tuple(operands)


def _is_assignment(arg: Arg) -> bool:
    return arg.value is not None and "=" in arg.value and not arg.value.startswith("=")


def unwrap_words(words: Sequence[str]) -> list[str]:
    """The command ``words`` run behind env assignments and wrappers (``FOO=1 timeout 60 uv run pytest``)."""
    if words and not _ENV_ASSIGNMENT.match(words[0]):
        # Most commands have no wrapper: the checks ask this of every simple command.
        name = executable(words[0])
        if name not in _ONE_WORD and (len(words) < 2 or (name, words[1]) not in _TWO_WORD):
            return list(words)
    args = tuple(Arg(word, word) for word in words)
    for _ in range(8):
        while args and args[0].value is not None and _ENV_ASSIGNMENT.match(args[0].value):
            args = args[1:]
        inner = unwrap_args(args)
        if inner is None:
            break
        args = inner
    return [arg.value or arg.raw for arg in args]
