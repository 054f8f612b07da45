"""The README's quick start, run as written by a user: installed outside the checkout, then each command.

The install line itself (``uv tool install``) needs the network for the
dependencies, so here the wheel is built from the checkout's files and
installed into a fresh environment that borrows this one's dependencies;
``.ci/run`` installs the wheel it builds with its dependencies, from the
network.  Everything after
it runs as the README says, in a home and a folder of its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.support.quick_start import quick_start_commands

ROOT = Path(__file__).resolve().parent.parent


def _checkout_copy(target: Path) -> Path:
    """The files of the checkout (tracked and new, none that git ignores), as a user would have them."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _wheel(source: Path, target: Path) -> Path:
    """The wheel of ``source``, built offline with this environment's setuptools, as ``.ci/run`` builds it."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
        + ["--no-index", "--wheel-dir", str(target), str(source)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    [wheel] = target.glob("artifact_index-*.whl")
    return wheel


def _fresh_environment(folder: Path, wheel: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The dependencies come from this environment (no network in tests); the package does not.
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run(
        # --ignore-installed: the dependencies' folder also holds this environment's own copy of
        # the package, which pip would otherwise take as already installed (no script is written).
        [python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--ignore-installed"]
        + [str(wheel)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    return folder / "bin"


def _run_quick_start(bin_dir: Path, tmp_path: Path) -> None:
    """Every line of the quick start after the install, with ``bin_dir``'s artifact-index on PATH."""
    install, *commands = quick_start_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert install.startswith("uv tool install ")
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    shutil.copytree(ROOT / "examples", work / "examples")
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(home),
        "LANG": "C.UTF-8",
    }
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        if command.startswith("artifact-index doctor"):
            assert "ok      claude-code (user)" in done.stdout, done.stdout
        if command.startswith("artifact-index summary"):
            assert "src/auth.py" in done.stdout
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    commands_written = {
        hook["command"]
        for groups in settings["hooks"].values()
        for group in groups
        for hook in group["hooks"]
    }
    assert commands_written == {f"{bin_dir / 'artifact-index'} hook"}


def test_the_quick_start_works_as_written(tmp_path: Path) -> None:
    # This environment's artifact-index stands for the installed one; the next test installs it.
    _run_quick_start(Path(sys.executable).parent, tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="the checkout's files are listed with git")
def test_the_quick_start_works_from_the_wheel_outside_the_checkout(tmp_path: Path) -> None:
    wheel = _wheel(_checkout_copy(tmp_path / "checkout"), tmp_path / "dist")
    _run_quick_start(_fresh_environment(tmp_path / "env", wheel), tmp_path)
