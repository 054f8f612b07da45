"""One table of wrappers: the effect inference and the error checks find the same command behind them."""

from __future__ import annotations

import pytest

from artifact_index.facts.errors.checks import checks_in, command_key
from artifact_index.shell.wrappers import unwrap_words

from .helpers import analyze, effects


@pytest.mark.parametrize(
    ("words", "command"),
    [
        ("timeout -s KILL 60 uv run --with rich pytest -x", "pytest -x"),
        ("sudo -u root env -u HOME FOO=1 make test", "make test"),
        ("FOO=1 nice -n 5 npx -- jest src", "jest src"),
        ("xvfb-run -a -s -screen pytest", "pytest"),
        ("pipx run --spec black==24 black .", "black ."),
        ("mamba run -n env pytest", "pytest"),
        ("pipx install black", "pipx install black"),
        ("command -v pytest", ""),
        ("mise exec go@1.24 node@22 -- go test ./...", "go test ./..."),
        ("mise x -- pytest -q", "pytest -q"),
        ("mise exec go@1.24", ""),  # no `--`: it starts a shell, no command of its own
        ("asdf exec go test ./...", "go test ./..."),
    ],
)
def test_the_command_behind_wrappers(words: str, command: str) -> None:
    assert " ".join(unwrap_words(words.split())) == command


@pytest.mark.parametrize(
    "command",
    ["xvfb-run -a rm a.py", "rtk rm a.py", "bundle exec rm a.py", "chronic rm a.py"],
)
def test_the_effects_are_the_wrapped_commands(command: str) -> None:
    # These wrappers were known to the error checks only: the inner command's effects were lost.
    assert effects(analyze(command)) == [("delete", "a.py")]


def test_looking_a_program_up_runs_no_check() -> None:
    # `command -v pytest` asks whether pytest is installed: the checks once read it as a pytest run.
    assert checks_in("command -v pytest") == ()
    assert checks_in("ionice -c 3 pytest tests") == checks_in("pytest tests")
    assert command_key("chronic make test") == command_key("make test")
