"""A failed command the session then did another way: the rebuilt entry point, the package manager the user asked for."""

from __future__ import annotations

from artifact_index.facts.errors.ledger import ErrorLedger


def _run(ledger: ErrorLedger, turn: int, command: str, output: str, ok: bool) -> None:
    ledger.observe(turn, command, "Bash", output, ok, f"c{turn}", None if ok else "exit_status")


def test_an_unknown_subcommand_is_resolved_when_another_entry_point_runs_it() -> None:
    ledger = ErrorLedger()
    _run(
        ledger,
        1,
        "docalign extract --force README.md",
        "Unknown command: extract. Run `docalign help` for usage.\n",
        False,
    )
    _run(ledger, 2, "npm run build 2>&1 | tail -5", "> tsc\n", True)
    assert ledger.open_errors
    _run(
        ledger, 3, "node dist/cli/main.js extract --force README.md", "extracted 12 claims\n", True
    )
    assert not ledger.open_errors
    [entry] = ledger.errors
    assert entry.resolution == "`extract` ran through another entry point and succeeded"


def test_an_unknown_subcommand_stays_open_when_another_program_runs_other_words() -> None:
    ledger = ErrorLedger()
    _run(ledger, 1, "docalign extract README.md", "Unknown command: extract.\n", False)
    _run(ledger, 2, "node dist/cli/main.js check README.md", "ok\n", True)
    assert ledger.open_errors


def test_a_failed_install_is_resolved_when_another_package_manager_adds_the_same_package() -> None:
    ledger = ErrorLedger()
    _run(
        ledger,
        1,
        "npm install feed",
        "npm error Cannot read properties of null (reading 'matches')\n",
        False,
    )
    assert ledger.open_errors
    _run(ledger, 2, "pnpm add feed", "dependencies:\n+ feed 5.1.0\n", True)
    assert not ledger.open_errors


def test_a_failed_install_stays_open_when_another_package_is_added() -> None:
    ledger = ErrorLedger()
    _run(
        ledger,
        1,
        "npm install feed",
        "npm error Cannot read properties of null (reading 'matches')\n",
        False,
    )
    _run(ledger, 2, "pnpm add zod", "dependencies:\n+ zod 3.0.0\n", True)
    assert ledger.open_errors


def test_a_dev_server_that_failed_to_start_is_not_resolved_by_a_commit() -> None:
    ledger = ErrorLedger()
    _run(
        ledger,
        1,
        "npm run dev",
        "> shop@0.1.0 dev\n> vite\nError: listen EADDRINUSE: address already in use :::5173\n",
        False,
    )
    _run(ledger, 2, "git add src && git commit -m 'Draw mode'", "[main 1a2b3c4] Draw mode\n", True)
    assert ledger.open_errors


def test_a_failed_script_is_still_passed_by_a_commit() -> None:
    ledger = ErrorLedger()
    _run(ledger, 1, "node scripts/seed.js", "Error: missing fixture\n", False)
    _run(ledger, 2, "git add src && git commit -m 'Seed'", "[main 1a2b3c4] Seed\n", True)
    assert not ledger.open_errors


def test_a_command_failing_again_in_other_words_has_not_resolved_its_failure() -> None:
    ledger = ErrorLedger()
    _run(
        ledger,
        1,
        "npm run dev",
        "> shop@0.1.0 dev\n> node server.js\nsandbox: permission denied\n",
        False,
    )
    _run(
        ledger,
        2,
        "npm run dev",
        "Error: listen EADDRINUSE: address already in use :::3000\n",
        False,
    )
    assert all(not e.resolved for e in ledger.errors)
