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


def test_a_commit_after_a_failed_script_does_not_resolve_it() -> None:
    # The commit is other work: the script's failure was gone past, not fixed.
    ledger = ErrorLedger()
    _run(ledger, 1, "node scripts/seed.js", "Error: missing fixture\n", False)
    _run(ledger, 2, "git add src && git commit -m 'Seed'", "[main 1a2b3c4] Seed\n", True)
    [entry] = ledger.errors
    assert not entry.resolved


def test_a_commit_resolves_the_failure_of_its_own_hooks() -> None:
    ledger = ErrorLedger()
    _run(
        ledger, 1, "pre-commit run --all-files", "check-yaml....Failed\nerror: bad indent\n", False
    )
    _run(ledger, 2, "git commit -m 'Seed'", "[main 1a2b3c4] Seed\n", True)
    assert all(e.resolved for e in ledger.errors)


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


def test_a_failed_pipeline_is_resolved_when_its_steps_run_again_with_other_glue() -> None:
    # Pull the environment, pick the key out of it, ask the API: the key was read wrongly twice
    # (eval, then export), then a sed spelled it right and the same request succeeded.
    ledger = ErrorLedger()
    _run(
        ledger,
        1,
        "npx vercel env pull .env.check 2>&1 >/dev/null && eval $(grep -E '^KEY=' .env.check"
        " | sed 's/^/export /') && curl -s \"$API_URL/rest/v1/users?email=eq.a@b.c\""
        ' -H "apikey: $KEY" && rm .env.check',
        "Created .env.check file  [191ms]\n",
        False,
    )
    _run(
        ledger,
        2,
        "export $(grep -E '^KEY=' .env.check | tr -d '\"') && curl -s"
        ' "$API_URL/rest/v1/users?email=eq.a@b.c" -H "apikey: $KEY" && rm .env.check',
        "Invalid API key\n",
        False,
    )
    assert len(ledger.open_errors) == 2
    _run(
        ledger,
        3,
        "KEY=$(grep '^KEY=' .env.check | sed 's/.*=\"\\(.*\\)\"/\\1/') && curl -s"
        " 'https://api.example.com/rest/v1/users?email=eq.a@b.c' -H \"apikey: $KEY\"",
        "[]\n",
        True,
    )
    # The request alone ran again: the failure of the one that also pulled stays open.
    [still_open] = ledger.open_errors
    assert still_open.first_turn == 1
    _run(
        ledger,
        4,
        "npx vercel env pull .env.check 2>&1 >/dev/null && KEY=$(grep '^KEY=' .env.check | cut"
        " -d'\"' -f2) && curl -s 'https://api.example.com/rest/v1/users?limit=10' | jq .",
        "[]\n",
        True,
    )
    assert not ledger.open_errors
    assert {entry.resolution for entry in ledger.errors} == {
        "the same steps ran again, their glue spelled another way, and succeeded"
    }


def test_a_failed_request_stays_open_when_a_later_one_asks_for_another_resource() -> None:
    ledger = ErrorLedger()
    _run(ledger, 1, "curl -sf https://api.example.com/v1/orders", "curl: (22) 500\n", False)
    _run(ledger, 2, "curl -sf https://api.example.com/v1/health", "ok\n", True)
    # git's own options come before its sub-command: `gc` and `count-objects` are other steps.
    _run(
        ledger,
        3,
        "git -C /repo gc --auto --dry-run 2>&1",
        "error: unknown option `dry-run'\n",
        False,
    )
    _run(ledger, 4, "git -C /repo count-objects -v 2>&1", "count: 12\n", True)
    # Nor is `git --version` the fixing run of a `--dry-run` that git refused.
    _run(ledger, 5, "git --version 2>&1", "git version 2.47.1\n", True)
    assert len(ledger.open_errors) == 2
