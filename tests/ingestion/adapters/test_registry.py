"""Adapters are discovered: every adapter class in the package is a known format, and nothing else is."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import subprocess
import sys

import artifact_index.ingestion.adapters as adapters
from artifact_index.ingestion.adapters import Adapter, adapter_named


def _adapter_classes() -> dict[str, type[Adapter]]:
    found: dict[str, type[Adapter]] = {}
    for module in pkgutil.walk_packages(adapters.__path__, f"{adapters.__name__}."):
        for _, value in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
            if issubclass(value, Adapter) and value is not Adapter and "name" in vars(value):
                found[value.name] = value
    return found


def test_every_adapter_class_is_a_known_format() -> None:
    # A fresh interpreter: here every module is imported by the walk below, registered or not.
    listed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json; from artifact_index.ingestion.adapters import known_formats; "
            "print(json.dumps(known_formats()))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    classes = _adapter_classes()
    assert len(classes) >= 20
    assert json.loads(listed.stdout) == sorted(classes)
    for name, adapter_class in classes.items():
        assert type(adapter_named(name)) is adapter_class
