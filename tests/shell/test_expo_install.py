"""`npx expo install X` adds X with the project's package manager: its manifest and lock change."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.trail.tracker.claude_bash import changed

from .helpers import analyze, effects


@pytest.mark.parametrize(
    ("command", "files", "changed_files"),
    [
        ("npx expo install expo-network", {}, ["package.json", "package-lock.json"]),
        ("bunx expo install expo-network", {"/w/bun.lock": ""}, ["package.json", "bun.lock"]),
        ("npx expo install a b --yarn", {}, ["package.json", "yarn.lock"]),
        ("npx expo install --fix", {}, ["package.json"]),
    ],
)
def test_expo_install_changes_the_manifest_and_the_lock_of_the_project_s_package_manager(
    command: str, files: dict[str, str | None], changed_files: list[str]
) -> None:
    assert effects(analyze(command, files=files)) == [("edit", p) for p in changed_files]


def test_expo_install_check_only_reports() -> None:
    assert effects(analyze("npx expo install --check")) == []


def test_other_expo_commands_may_write_files_they_do_not_name() -> None:
    analysis = analyze("npx expo prebuild --platform ios --clean")
    assert analysis.operations == [] and analysis.opaque


def test_a_package_json_read_before_expo_install_is_not_unchanged(tmp_path: Path) -> None:
    files, unknown = changed(
        tmp_path,
        "/app",
        [
            ("cat package.json", '{"dependencies": {}}\n'),
            (
                "npx expo install @bacons/apple-targets 2>&1",
                "› Installing 1 other package using npm\n> npm install --save @bacons/apple-targets\n",
            ),
        ],
    )
    assert files["package.json"] == "modified" and unknown == []
