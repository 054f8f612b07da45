"""Recognizing the check a command runs, so reruns and broader runs can be matched."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.facts.errors.checks import checks_in, command_key, covers, masks_exit_status
from artifact_index.facts.errors.checks.command_line import segments


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "cd /testbed && python -m pytest tests/test_auth.py -x --tb=short 2>&1 | tail -30",
            "pytest tests/test_auth.py -q",
        ),
        ("uv run pytest -v tests/", "PYTHONPATH=. pytest tests"),
        ("npx tsc --noEmit 2>&1 | head -50", "tsc -p tsconfig.json"),
        ("go test -v -count=1 ./...", "go test ./..."),
        ("python reproduce.py 2>&1 | head -40", "cd /repo && python reproduce.py"),
    ],
)
def test_same_check_despite_output_flags(first: str, second: str) -> None:
    assert command_key(first) == command_key(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("pytest tests/test_auth.py", "pytest tests/test_tokens.py"),
        ("pytest -k login", "pytest -k logout"),
        ("go test ./cmd/...", "go test ./pkg/..."),
        ("cargo test claims", "cargo test tokens"),
        ("python reproduce.py", "python reproduce2.py"),
        ("npm test", "npm run lint"),
    ],
)
def test_different_checks(first: str, second: str) -> None:
    assert command_key(first) != command_key(second)


@pytest.mark.parametrize(
    ("later", "earlier"),
    [
        ("pytest", "pytest tests/test_auth.py::test_login"),
        ("python -m pytest tests", "pytest tests/test_auth.py"),
        ("cd /testbed && pytest tests", "pytest /testbed/tests/test_auth.py::test_login"),
        ("pytest tests/test_auth.py", "pytest -k login tests/test_auth.py"),
        ("go test ./...", "go test -run TestReset ./cmd/entire/cli"),
        ("go test ./cmd/...", "go test ./cmd/entire/cli"),
        ("cargo test", "cargo test claims::tests"),
        ("npm test", "npm test -- src/auth/token.test.ts"),
        ("ruff check . && pytest", "pytest tests/test_auth.py"),
        ("mypy src", "mypy src/auth.py"),
        ("cd /repo && go test ./...", "cd /repo/e2e && go test ."),
    ],
)
def test_broader_runs_cover_narrower_ones(later: str, earlier: str) -> None:
    assert covers(later, earlier)
    assert not covers(earlier, later) or command_key(earlier) == command_key(later)


@pytest.mark.parametrize(
    ("later", "earlier"),
    [
        ("pytest tests/test_tokens.py", "pytest tests/test_auth.py"),
        ("pytest -k logout", "pytest"),
        ("go test ./pkg/...", "go test ./cmd/x"),
        ("jest", "pytest"),
        ("python other.py", "python reproduce.py"),
        ("ls", "pytest"),
        # Run from another folder: its `./...` is that folder's packages, not the earlier ones.
        ("cd /repo/agents/kiro && go test ./...", "cd /repo && go test -tags=e2e ./e2e/..."),
        ("cd /repo/api && pytest", "cd /repo/web && pytest tests/test_auth.py"),
    ],
)
def test_unrelated_runs_do_not_cover(later: str, earlier: str) -> None:
    assert not covers(later, earlier)


def test_compound_commands_hold_every_check() -> None:
    runners = [check.runner for check in checks_in("ruff check src && mypy src && pytest -q")]
    assert runners == ["ruff", "mypy", "pytest"]
    assert [c.category for c in checks_in("npm run lint && npm run typecheck && npm test")] == [
        "lint",
        "typecheck",
        "test",
    ]


def test_an_interpreter_named_by_a_variable_set_before_is_that_interpreter() -> None:
    command = "cd /repo\nPY=/opt/envs/app/bin/python\n$PY -m pytest tests/test_a.py -q | tail -8"
    [check] = checks_in(command)
    assert (check.runner, check.category, check.targets) == ("pytest", "test", ("tests/test_a.py",))
    assert [c.runner for c in checks_in("PY=python3; ${PY} -m mypy src")] == ["mypy"]
    # A variable no earlier word sets stays a variable: nothing to recognize.
    assert checks_in("$PY -m pytest tests") == ()


def test_heredoc_bodies_are_not_commands() -> None:
    assert checks_in("cat > notes.md <<'EOF'\npytest is flaky here\nEOF") == ()


@pytest.mark.parametrize(
    ("command", "masked"),
    [
        ("pytest 2>&1 | tail -20", True),
        ("go test ./... | grep FAIL", True),
        ("make test; echo exit=$?", True),
        ("npm test || true", True),
        ("pytest", False),
        ("cd /repo && pytest -x", False),
        ("pytest > log.txt 2>&1", False),
    ],
)
def test_exit_status_masking(command: str, masked: bool) -> None:
    assert masks_exit_status(command) is masked


def test_a_rerun_with_options_added_covers_a_plain_command() -> None:
    from artifact_index.facts.errors.checks import covers

    assert covers("git push --set-upstream origin topic", "git push")
    assert covers("cd /repo && python reproduce.py --verbose", "python reproduce.py")
    assert not covers("git pull", "git push")
    assert not covers("git push", "git push --set-upstream origin topic")
    assert covers("ls -la", "ls -la")


def test_a_check_in_a_loop_body_is_a_check() -> None:
    # The checks read the shell layer's parse: a tokenizer of their own once saw `do pytest $f`.
    assert [c.runner for c in checks_in("for f in a b; do pytest $f; done")] == ["pytest"]
    assert [c.runner for c in checks_in("if make lint; then npx jest; fi")] == ["make lint", "jest"]


def test_a_check_run_for_its_output_is_a_check() -> None:
    assert [c.runner for c in checks_in("out=$(pytest -q 2>&1); echo $out")] == ["pytest"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\r\n\x0b\xa0;&|<>()#~-./*?=$`{}[]!%@,:aZ09é'\"\\", max_size=40))
def test_any_command_text_gives_simple_commands(command: str) -> None:
    for piped, words in segments(command):
        assert isinstance(piped, bool)
        assert words and all(isinstance(word, str) for word in words)


def test_a_check_after_a_long_heredoc_is_seen() -> None:
    # The checks' own tokenizer read only a command's first 4,000 characters: a script written by a
    # long heredoc and run right after it (`cat > t.py <<'EOF' ... EOF` then `python t.py`) was missed.
    body = "\n".join(f"x{i} = {i}" for i in range(800))
    command = f"cd /repo && cat > test_fix.py << 'EOF'\n{body}\nEOF\npython test_fix.py"
    assert [c.runner for c in checks_in(command)] == ["python test_fix.py"]


def test_git_options_with_a_value_are_skipped_as_the_shell_layer_skips_them() -> None:
    from artifact_index.facts.errors.checks import subcommands

    # `--config-env` takes a value like `-c`: the value is not git's subcommand.
    assert subcommands("git --config-env core.pager=PAGER status") == {"git status"}
    assert subcommands("git -C repo -c core.pager=cat commit -m x") == {"git commit"}
    assert subcommands("git --git-dir=.git log") == {"git log"}


def test_a_script_that_builds_the_tests_runs_none_of_them() -> None:
    assert [c.category for c in checks_in("pnpm run compile-tests && npm run build:test")] == [
        "build",
        "build",
    ]
    assert [c.category for c in checks_in("npm run test:unit && pnpm e2e-tests")] == [
        "test",
        "test",
    ]


def test_a_run_covers_the_checks_of_one_kind_that_a_chain_ran() -> None:
    # The chain also built everything; a later run of the package's tests runs its tests again
    # though not the build, so it settles a test failure of the chain, not the chain as a whole.
    chain = "go build ./... 2>&1 | head -20 && echo BUILD OK && go test ./internal/sem -run '^TestMasks'"
    assert not covers("go test ./internal/sem/", chain)
    assert covers("go test ./internal/sem/", chain, "test")
    assert not covers("go test ./internal/other", chain, "test")
    assert not covers("go vet ./...", chain, "test")  # no test in it
