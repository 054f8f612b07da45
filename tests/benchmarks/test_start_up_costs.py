"""benchmarks/start_up_costs.py: where a hook's start-up goes, measured in a fresh process."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "start_up_costs.py"


def test_the_start_up_is_told_by_kind_of_cost(tmp_path: Path) -> None:
    # The timers reach into pydantic's and the standard library's internals: a version that moves
    # them must fail here, not print a breakdown that silently left its part out.
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--work", str(tmp_path / "work"), "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    figures = {
        match.group(1).strip(): float(match.group(2))
        for match in re.finditer(r"^ {2,4}(\S.*?)\s+(\d+\.\d) ms", done.stdout, re.MULTILINE)
    }
    assert figures["total"] > figures["imports"] > figures["dataclasses"] > 0
    assert figures["model classes"] > 0 and figures["work"] > 0
    assert "validators built" in figures and "patterns compiled" in figures
    assert figures["python -c 'import json'"] < figures["total"]
