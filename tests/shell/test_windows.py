"""cmd.exe and PowerShell commands: recognized from the harness or the command, and their effects."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.shell import analyze_command, windows
from artifact_index.shell.windows import shell_dialect
from artifact_index.trail.build import build_index
from tests.support.paths import FIXTURES

from .helpers import FakeContext, analyze, effects

WIN = "c:/app"
SESSION = FIXTURES / "cline" / "windows-shell.json"


def _effects(
    command: str,
    *,
    cwd: str = WIN,
    files: dict[str, str | None] | None = None,
    dialect: str | None = None,
) -> list[tuple[str, ...]]:
    analysis = analyze_command(
        command, cwd, succeeded=True, context=FakeContext(dict(files or {})), dialect=dialect
    )  # type: ignore[arg-type]
    out: list[tuple[str, ...]] = []
    for op in analysis.operations:
        path = (op.path or "").removeprefix(cwd + "/")
        out.append(
            (op.action, path, op.dest.removeprefix(cwd + "/")) if op.dest else (op.action, path)
        )
    return out


@pytest.mark.parametrize(
    ("command", "cwd", "dialect"),
    [
        ("cd c:\\app && npm install", WIN, "cmd"),
        ("del /f /q build\\out.log 2>nul", "/w", "cmd"),
        ("timeout /t 3 /nobreak >nul", "/w", "cmd"),
        ("type README.md", WIN, "cmd"),
        ("Remove-Item -Recurse -Force dist", "/w", "powershell"),
        ("$env:NODE_ENV = 'test'; npm test", WIN, "powershell"),
        ("cd C:\\proj; npm install", WIN, "powershell"),
        ("npm install", WIN, "bash"),
        ("date +%Y%m%d > stamp.txt", "/w", "bash"),
        # Git Bash on a Windows drive: git's format placeholders are not cmd variables.
        ("git log -1 --format='%H%nauthor: %an <%ae>%ndate: %ad' HEAD", WIN, "bash"),
        ("echo %USERPROFILE% && type a.txt", WIN, "cmd"),
        ("for %%f in (*.log) do echo %%f", WIN, "cmd"),
        ("git commit -m 'Remove-Item handling' && rm -rf build", "/w", "bash"),
        ("sed -i 's/as e:\\n/as err:\\n/' app.py", "/w", "bash"),
    ],
)
def test_the_shell_is_recognized_from_the_command_and_the_directory(
    command: str, cwd: str, dialect: str
) -> None:
    assert shell_dialect(command, cwd) == dialect


def test_the_harness_can_say_which_shell_runs_the_command() -> None:
    assert shell_dialect("rm -rf dist", WIN, "powershell") == "powershell"
    assert _effects("rm -Recurse -Force dist", dialect="powershell") == []
    assert _effects("rm dist.zip", dialect="powershell") == [("delete", "dist.zip")]


class TestCmd:
    def test_backslash_paths_and_cd_keep_their_directories(self) -> None:
        analysis = analyze_command(
            "cd c:\\app\\terraform && type variables.tf", "c:/elsewhere", succeeded=True
        )
        assert [(op.action, op.path) for op in analysis.operations] == [
            ("read", "c:/app/terraform/variables.tf")
        ]
        assert analysis.cwd_after == "c:/app/terraform"

    def test_nul_is_no_file(self) -> None:
        assert _effects("taskkill /F /IM node.exe 2>nul & echo done > nul") == []

    def test_del_erase_and_rd(self) -> None:
        assert _effects("del /f /q a.txt b\\c.txt 2>nul && erase d.log") == [
            ("delete", "a.txt"),
            ("delete", "b/c.txt"),
            ("delete", "d.log"),
        ]
        files: dict[str, str | None] = {"c:/app/.next/cache/x.json": "{}"}
        assert _effects("rmdir /s /q .next", files=files) == [("delete", ".next/cache/x.json")]
        assert _effects("rd /s /q .terraform") == []  # a directory with no file the trail knows

    def test_copy_move_ren_and_mkdir(self) -> None:
        assert _effects("copy /y .env.example .env") == [("copy", ".env.example", ".env")]
        assert _effects("move /y old.txt archive\\old.txt") == [
            ("move", "old.txt", "archive/old.txt")
        ]
        assert _effects("ren src\\lib\\firebase.ts firebase.ts.deprecated") == [
            ("move", "src/lib/firebase.ts", "src/lib/firebase.ts.deprecated"),
        ]
        assert (
            _effects("mkdir src\\components\\ui") == []
        )  # a directory is no file; it is remembered

    def test_output_redirections_write_files(self) -> None:
        analysis = analyze_command(
            "echo API_URL=http://localhost> .env.local && type nul > empty.txt", WIN, succeeded=True
        )
        assert [(op.action, op.path, op.content) for op in analysis.operations] == [
            ("write", "c:/app/.env.local", "API_URL=http://localhost\n"),
            ("write", "c:/app/empty.txt", ""),
        ]

    def test_a_variable_is_known_only_at_run_time(self) -> None:
        ((action, _),) = _effects("del %TEMP_FILE%")
        assert action == "unknown"


class TestPowerShell:
    def test_remove_item_by_position_by_name_and_as_a_list(self) -> None:
        assert _effects("Remove-Item a.txt, b.txt") == [("delete", "a.txt"), ("delete", "b.txt")]
        assert _effects(
            "Remove-Item -Path .\\logs\\app.log -Force -ErrorAction SilentlyContinue"
        ) == [("delete", "logs/app.log")]
        assert _effects("Remove-Item -LiteralPath 'notes [old].md'") == [
            ("delete", "notes [old].md")
        ]

    def test_set_add_content_and_out_file_write_what_they_are_given(self) -> None:
        analysis = analyze_command(
            'Set-Content -Path .env -Value "X=1"; Add-Content .gitignore "dist/"',
            WIN,
            succeeded=True,
        )
        assert [(op.action, op.path, op.content or op.new) for op in analysis.operations] == [
            ("write", "c:/app/.env", "X=1\n"),
            ("edit", "c:/app/.gitignore", "dist/\n"),
        ]
        assert _effects('"x=1" | Out-File -FilePath config.ini -Encoding utf8') == [
            ("write", "config.ini")
        ]
        assert _effects("Get-Content a.txt | Set-Content b.txt") == [
            ("read", "a.txt"),
            ("write", "b.txt"),
        ]

    def test_tee_object_into_a_variable_writes_no_file(self) -> None:
        command = (
            "gh issue create --title t --body $b | Tee-Object -Variable url1; Write-Host $url1"
        )
        assert _effects(command, dialect="powershell") == []
        assert _effects("gh pr view 3 | Tee-Object -Var out", dialect="powershell") == []
        assert _effects("npm test | Tee-Object -FilePath test.log", dialect="powershell") == [
            ("write", "test.log")
        ]

    def test_a_here_string_is_one_string_whatever_it_holds(self) -> None:
        # Text an agent hands to `gh issue create`: `->`, apostrophes and `<tag >` are prose.
        for quote in ("'", '"'):
            command = (
                f"$b = @{quote}\n"
                "- `color: inherit;`      -> 6 pass / 0 fail\n"
                "the reviewer's note: the `<result >` block lives in the parent's log\n"
                f"{quote}@\n"
                "gh issue create --title 'guard' --body $b"
            )
            assert _effects(command, dialect="powershell") == []
        command = "$v = @'\nx > y\n'@\nSet-Content -Path notes.md -Value $v"
        assert _effects(command, dialect="powershell") == [("write", "notes.md")]

    def test_new_item_copy_move_rename(self) -> None:
        command = "New-Item -ItemType Directory -Force -Path src\\utils | Out-Null; New-Item -Path src\\utils -Name index.ts -ItemType File -Value 'export {}'"
        assert _effects(command) == [("write", "src/utils/index.ts")]
        assert _effects("Copy-Item -Path .env.example -Destination .env") == [
            ("copy", ".env.example", ".env")
        ]
        assert _effects("Move-Item old.js new.js") == [("move", "old.js", "new.js")]
        assert _effects("Rename-Item -Path src\\a.js -NewName b.js") == [
            ("move", "src/a.js", "src/b.js")
        ]

    def test_items_from_the_pipeline_are_known_only_at_run_time(self) -> None:
        ((action, _),) = _effects("Get-ChildItem -Filter *.log | Remove-Item -Force")
        assert action == "unknown"

    def test_null_is_no_file_and_set_location_moves(self) -> None:
        analysis = analyze_command(
            "Set-Location src; Get-Content app.ts > $null", WIN, succeeded=True
        )
        assert [(op.action, op.path) for op in analysis.operations] == [
            ("read", "c:/app/src/app.ts")
        ]


def test_a_cline_session_on_windows() -> None:
    index, _ = build_index(SESSION)
    assert {f.path: f.status for f in index.files() if f.status} == {
        "terraform/main.tf": "read",
        "terraform/terraform.tfstate": "deleted",
        "terraform/terraform.tfstate.backup": "deleted",
        "terraform/variables.tf": "read",
        ".env.local": "created",
        "src/lib/firebase.ts": "deleted",
        "src/lib/firebase.ts.deprecated": "created",
        "docs/README.md": "created",
    }
    assert not any("nul" in f.path or f.path.startswith("c:") for f in index.files())
    assert index.unknown_effects() == []


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_dialect_pattern_is_skipped_only_when_the_command_cannot_match_it(
    data: st.DataObject,
) -> None:
    # shell_dialect tries each pattern only on commands holding what it needs: every command the
    # pattern matches must hold it.
    assert windows._DASH_CAPITAL.search(data.draw(st.from_regex(_compiled(windows._CMDLET))))
    marks = data.draw(st.from_regex(_compiled(windows._POWERSHELL_MARKS)))
    assert "$" in marks or "-ErrorAction" in marks
    assert ">" in data.draw(st.from_regex(_compiled(windows._NUL_OUTPUT)))
    program = data.draw(st.from_regex(_compiled(windows._CMD_PROGRAM)))
    assert windows._cmd_program_starts(program)


class TestPowerShellVariablesAndCommonParameters:
    def test_a_path_assigned_earlier_in_the_command_is_named(self) -> None:
        command = (
            "$Target = 'c:\\app\\src\\config.json'; $dir = \"c:\\app\\out\"; "
            "Set-Content $target '{}'; Set-Content -Path \"$Dir\\report.txt\" -Value 'ok'"
        )
        assert _effects(command, dialect="powershell") == [
            ("write", "src/config.json"),
            ("write", "out/report.txt"),
        ]

    def test_a_download_to_an_assigned_path(self) -> None:
        command = (
            '$zip = "c:\\app\\tmp\\tool.zip"; '
            'Invoke-WebRequest -Uri "https://example.com/tool.zip" -OutFile $zip; '
            "Invoke-RestMethod https://example.com/api | ConvertTo-Json"
        )
        assert _effects(command, dialect="powershell") == [("write", "tmp/tool.zip")]

    def test_a_value_known_only_at_run_time_is_not_a_guess(self) -> None:
        command = "$p = Join-Path $PWD 'x.txt'; Set-Content $p 'hi'"
        assert _effects(command, dialect="powershell") == [("unknown", "")]

    def test_a_here_string_assigned_to_a_variable_runs_nothing(self) -> None:
        command = (
            "$body = @'\nif ($n -gt 1) { Write-Output \"a\" > $null }\nreturn 1 -> 2\n'@\n"
            "Set-Content -Path notes.md -Value $body"
        )
        assert _effects(command, dialect="powershell") == [("write", "notes.md")]

    def test_variables_of_other_drives_and_common_parameter_values_are_no_files(self) -> None:
        command = (
            "Remove-Item Env:\\GIT_DIR; Remove-Item -Path Variable:tmp -ErrorAction Ignore; "
            "Remove-Item build.log -Force -ErrorAction SilentlyContinue"
        )
        assert _effects(command, dialect="powershell") == [("delete", "build.log")]

    def test_an_environment_variable_or_a_compound_assignment_runs_nothing(self) -> None:
        command = (
            '$env:Path += ";C:\\Users\\me\\bin\\tool"; $env:GIT_PAGER = "cat"; '
            "$global:count += 1; $n -= 2; $list += @('a'); Set-Content out.txt 'x'"
        )
        assert _effects(command, dialect="powershell") == [("write", "out.txt")]

    def test_a_variable_built_up_by_a_compound_assignment_is_known_only_at_run_time(
        self,
    ) -> None:
        command = "$p = 'c:\\app\\a'; $p += '.txt'; Set-Content $p 'hi'"
        assert _effects(command, dialect="powershell") == [("unknown", "")]

    def test_a_quoted_string_on_its_own_is_output_not_a_program(self) -> None:
        command = '"=== mirror get (owner/repo) ==="; "`n=== branch/head ==="; git status'
        assert _effects(command, dialect="powershell") == []

    def test_a_quoted_program_after_the_call_operator_still_runs(self) -> None:
        for command in ('& "c:/app/scripts/gen.ps1"', '. "c:\\app\\scripts\\env.ps1"'):
            assert _effects(command, dialect="powershell") == [("unknown", "")], command

    def test_archives_made_are_named_and_archives_unpacked_are_unknown(self) -> None:
        command = (
            "Compress-Archive -Path dist\\* -DestinationPath release.zip -Force; "
            "Expand-Archive -Path release.zip -DestinationPath c:\\app\\bin -Force"
        )
        assert _effects(command, dialect="powershell") == [
            ("write", "release.zip"),
            ("unknown", ""),
        ]


def _compiled(pattern: re.Pattern[str]) -> re.Pattern[str]:
    # Hypothesis takes a str or a compiled pattern; the module's is compiled on its first use.
    return re.compile(pattern.pattern, pattern.flags)


class TestPowerShellFromAnotherShell:
    """`pwsh -NoProfile -Command "..."` run from Git Bash: the PowerShell code has its effects."""

    @pytest.mark.parametrize(
        ("command", "expected"),
        [
            ('pwsh -NoProfile -Command "Remove-Item notes.txt"', [("delete", "notes.txt")]),
            (
                "powershell.exe -ExecutionPolicy Bypass -c \"Set-Content -Path out.txt -Value 'x'\"",
                [("write", "out.txt")],
            ),
            (
                "pwsh -NoProfile -Command \"./scripts/land.ps1 -Id 'a1' -Out 'docs/r4.md' -Title 'x'\"",
                [("unknown", None), ("write", "docs/r4.md")],
            ),
            (
                "pwsh -File ./scripts/land.ps1 -Out docs/r5.md",
                [("unknown", None), ("write", "docs/r5.md")],
            ),
        ],
    )
    def test_the_code_runs(self, command: str, expected: list[tuple[str, str | None]]) -> None:
        assert effects(analyze(command)) == expected

    def test_code_known_only_at_run_time_is_unknown(self) -> None:
        assert effects(analyze('pwsh -Command "$CODE"')) == [("unknown", None)]

    def test_a_failed_run_changed_nothing(self) -> None:
        result = analyze('pwsh -NoProfile -Command "Remove-Item notes.txt"', succeeded=False)
        assert effects(result) == []
