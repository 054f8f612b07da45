"""Each language's tags query, checked against a hand-written file with every kind of definition.

The expected lists were written by reading the fixture files: kind, name,
container (the enclosing class / impl / module / function, or a Go receiver
and C++ ``Type::`` qualifier), first and last line.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from artifact_index import grammars
from artifact_index.facts.symbols import definitions as symbols
from artifact_index.facts.symbols import extraction
from artifact_index.facts.symbols.definitions import (
    Definition,
    definitions,
    language_for_path,
    tags_query,
)
from artifact_index.grammars import GrammarUnavailable

Row = tuple[str, str, str | None, int, int]

LANGUAGES = [
    "python",
    "javascript",
    "typescript",
    "tsx",
    "go",
    "rust",
    "java",
    "c",
    "cpp",
    "c_sharp",
    "ruby",
    "php",
    "kotlin",
    "bash",
    "elixir",
]

EXPECTED: dict[str, list[Row]] = {
    "Sample.cs": [
        ("module", "Shop.Billing", None, 5, 57),
        ("interface", "IInvoiceStore", "Shop.Billing", 7, 10),
        ("method", "Find", "IInvoiceStore", 9, 9),
        ("enum", "Status", "Shop.Billing", 12, 16),
        ("struct", "Money", "Shop.Billing", 18, 26),
        ("method", "Money", "Money", 22, 25),
        ("class", "Customer", "Shop.Billing", 28, 28),
        ("type", "Notify", "Shop.Billing", 30, 30),
        ("class", "Invoice", "Shop.Billing", 32, 56),
        ("method", "Invoice", "Invoice", 36, 36),
        ("method", "Add", "Invoice", 40, 44),
        ("method", "Empty", "Invoice", 46, 46),
        ("class", "Audit", "Invoice", 48, 55),
        ("method", "Record", "Audit", 50, 54),
        ("function", "Write", "Record", 52, 52),
    ],
    "Sample.java": [
        ("class", "Sample", None, 6, 36),
        ("method", "Sample", "Sample", 9, 11),
        ("method", "toString", "Sample", 13, 16),
        ("method", "count", "Sample", 18, 20),
        ("class", "Builder", "Sample", 22, 26),
        ("method", "build", "Builder", 23, 25),
        ("enum", "State", "Sample", 28, 35),
        ("method", "isOpen", "State", 32, 34),
        ("interface", "Repository", None, 38, 44),
        ("method", "find", "Repository", 39, 39),
        ("method", "exists", "Repository", 41, 43),
        ("class", "Price", None, 46, 50),
        ("method", "Price", "Price", 47, 49),
        ("interface", "Audited", None, 52, 54),
        ("method", "value", "Audited", 53, 53),
    ],
    "Sample.kt": [
        ("type", "Price", None, 6, 6),
        ("interface", "Repository", None, 8, 10),
        ("method", "find", "Repository", 9, 9),
        ("enum", "Status", None, 12, 17),
        ("method", "isOpen", "Status", 16, 16),
        ("class", "Item", None, 19, 19),
        ("class", "Result", None, 21, 24),
        ("class", "Ok", "Result", 22, 22),
        ("object", "Empty", "Result", 23, 23),
        ("class", "Cart", None, 26, 38),
        ("method", "constructor", "Cart", 29, 29),
        ("method", "add", "Cart", 31, 33),
        ("method", "empty", "Cart", 36, 36),
        ("object", "InMemory", None, 40, 42),
        ("method", "find", "InMemory", 41, 41),
        ("function", "total", None, 44, 47),
        ("function", "positive", "total", 45, 45),
        ("method", "discounted", "Item", 49, 49),
    ],
    "sample.c": [
        ("macro", "SQUARE", None, 5, 5),
        ("struct", "node", None, 7, 10),
        ("struct", "point_t", None, 12, 15),
        ("union", "number", None, 17, 20),
        ("enum", "color", None, 22, 22),
        ("type", "compare_fn", None, 24, 24),
        ("function", "list_length", None, 26, 26),
        ("function", "add", None, 28, 31),
        ("function", "duplicate", None, 33, 40),
        ("function", "main", None, 42, 45),
        ("type", "tree_t", None, 47, 47),
        ("struct", "list", None, 49, 51),
    ],
    "sample.cpp": [
        ("module", "shop", None, 5, 40),
        ("struct", "Item", "shop", 7, 10),
        ("enum", "Currency", "shop", 12, 12),
        ("class", "Cart", "shop", 14, 31),
        ("method", "Cart", "Cart", 16, 16),
        ("method", "~Cart", "Cart", 17, 17),
        ("method", "add", "Cart", 19, 21),
        ("method", "total", "Cart", 23, 23),
        ("class", "Audit", "Cart", 26, 28),
        ("method", "record", "Audit", 27, 27),
        ("function", "clamp", "shop", 33, 36),
        ("type", "Prices", "shop", 38, 38),
        ("method", "~Cart", "Cart", 42, 42),
        ("method", "total", "Cart", 44, 50),
        ("function", "helper", None, 52, 54),
    ],
    "sample.ex": [
        ("module", "Shop.Cart", None, 2, 24),
        ("function", "new", "Shop.Cart", 7, 7),
        ("function", "add", "Shop.Cart", 9, 11),
        ("function", "total", "Shop.Cart", 13, 15),
        ("macro", "debug", "Shop.Cart", 17, 19),
        ("module", "Item", "Shop.Cart", 21, 23),
        ("function", "price", "Item", 22, 22),
        ("module", "Shop.Priced", None, 26, 28),
        ("function", "price", "Shop.Priced", 27, 27),
        ("method", "price", "Shop.Cart", 31, 31),
    ],
    "sample.go": [
        ("type", "Key", None, 9, 9),
        ("interface", "Store", None, 11, 14),
        ("method", "Get", "Store", 12, 12),
        ("method", "Put", "Store", 13, 13),
        ("struct", "memory", None, 16, 18),
        ("type", "Option", None, 21, 21),
        ("type", "Level", None, 22, 22),
        ("function", "New", None, 25, 31),
        ("method", "Get", "memory", 33, 39),
        ("method", "Put", "memory", 41, 44),
        ("function", "Map", None, 46, 52),
        ("struct", "Stack", None, 54, 56),
        ("method", "Push", "Stack", 58, 60),
        ("type", "Alias", None, 62, 62),
    ],
    "sample.js": [
        ("function", "plain", None, 4, 6),
        ("function", "counter", None, 8, 10),
        ("function", "arrow", None, 12, 12),
        ("function", "expression", None, 14, 16),
        ("function", "exported", None, 18, 20),
        ("class", "Widget", None, 22, 40),
        ("method", "constructor", "Widget", 25, 27),
        ("method", "render", "Widget", 29, 31),
        ("method", "size", "Widget", 33, 35),
        ("method", "handleClick", "Widget", 37, 39),
        ("method", "onLoad", "handlers", 43, 45),
        ("method", "onSave", "handlers", 46, 46),
        ("method", "mounted", "Editor", 50, 52),
        ("function", "legacy", None, 55, 57),
        ("class", "Mixin", None, 61, 65),
        ("method", "apply", "Mixin", 62, 64),
    ],
    "sample.php": [
        ("module", "App\\Billing", None, 4, 4),
        ("interface", "Payable", None, 8, 11),
        ("method", "pay", "Payable", 10, 10),
        ("trait", "Loggable", None, 13, 19),
        ("method", "log", "Loggable", 15, 18),
        ("enum", "Status", None, 21, 30),
        ("method", "label", "Status", 26, 29),
        ("class", "Invoice", None, 32, 52),
        ("method", "__construct", "Invoice", 38, 40),
        ("method", "pay", "Invoice", 42, 46),
        ("method", "empty", "Invoice", 48, 51),
        ("function", "format_money", None, 54, 57),
    ],
    "sample.py": [
        ("function", "top_level", None, 6, 10),
        ("function", "helper", "top_level", 7, 8),
        ("function", "decorated", None, 13, 15),
        ("function", "fetch", None, 18, 19),
        ("class", "Service", None, 22, 42),
        ("method", "__init__", "Service", 27, 28),
        ("method", "label", "Service", 30, 32),
        ("method", "create", "Service", 34, 36),
        ("class", "Config", "Service", 38, 42),
        ("method", "toggle", "Config", 41, 42),
    ],
    "sample.rb": [
        ("module", "Billing", None, 4, 36),
        ("class", "Invoice", "Billing", 7, 31),
        ("method", "initialize", "Invoice", 10, 12),
        ("method", "total", "Invoice", 14, 16),
        ("method", "empty", "Invoice", 18, 20),
        ("method", "build", "Invoice", 23, 25),
        ("class", "Line", "Invoice", 28, 30),
        ("method", "amount", "Line", 29, 29),
        ("method", "helper", "Billing", 33, 35),
        ("function", "top_level", None, 38, 40),
    ],
    "sample.rs": [
        ("type", "Result", None, 6, 6),
        ("struct", "Point", None, 8, 12),
        ("struct", "Wrapper", None, 14, 14),
        ("enum", "Error", None, 16, 20),
        ("union", "Bits", None, 22, 25),
        ("trait", "Shape", None, 27, 33),
        ("method", "area", "Shape", 28, 28),
        ("method", "describe", "Shape", 30, 32),
        ("method", "new", "Point", 36, 38),
        ("method", "inner", "Wrapper", 42, 44),
        ("method", "fmt", "Error", 48, 50),
        ("macro", "square", None, 53, 57),
        ("function", "distance", None, 59, 63),
        ("module", "tests", None, 65, 72),
        ("function", "origin", "tests", 68, 71),
    ],
    "sample.sh": [
        ("function", "log", None, 5, 7),
        ("function", "cleanup", None, 9, 11),
        ("function", "deploy", None, 13, 19),
        ("function", "build", "deploy", 15, 17),
    ],
    "sample.ts": [
        ("interface", "Repository", None, 2, 5),
        ("method", "find", "Repository", 3, 3),
        ("method", "save", "Repository", 4, 4),
        ("type", "UserId", None, 7, 7),
        ("enum", "Role", None, 9, 12),
        ("function", "fetchRemote", None, 14, 14),
        ("function", "createUser", None, 16, 18),
        ("function", "toId", None, 20, 20),
        ("class", "Entity", None, 22, 28),
        ("method", "validate", "Entity", 23, 23),
        ("method", "describe", "Entity", 25, 27),
        ("class", "User", None, 30, 45),
        ("method", "constructor", "User", 34, 36),
        ("method", "validate", "User", 38, 40),
        ("method", "onChange", "User", 42, 44),
        ("module", "Validation", None, 47, 51),
        ("function", "isValid", "Validation", 48, 50),
    ],
    "sample.tsx": [
        ("interface", "ButtonProps", None, 4, 7),
        ("method", "onPress", "ButtonProps", 6, 6),
        ("type", "Variant", None, 9, 9),
        ("function", "Button", None, 11, 13),
        ("function", "Badge", None, 15, 17),
        ("class", "Panel", None, 19, 33),
        ("method", "toggle", "Panel", 22, 24),
        ("method", "render", "Panel", 26, 32),
    ],
}


def _rows(found: list[Definition]) -> list[Row]:
    return [(d.kind, d.name, d.container, d.start_line, d.end_line) for d in found]


@pytest.mark.parametrize("fixture", sorted(EXPECTED))
def test_every_kind_of_definition_is_found(fixtures_dir: Path, fixture: str) -> None:
    path = fixtures_dir / "symbols" / fixture
    language = language_for_path(path.name)
    assert language is not None
    assert _rows(definitions(path.read_text(encoding="utf-8"), language)) == EXPECTED[fixture]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_a_compiling_query_and_a_fixture(language: str) -> None:
    assert tags_query(language) is not None
    assert language in {language_for_path(name) for name in EXPECTED}


def test_queries_ship_as_package_data() -> None:
    folder = resources.files("artifact_index.facts.symbols").joinpath("queries")
    shipped = {entry.name for entry in folder.iterdir() if entry.name.endswith("-tags.scm")}
    assert {f"{language}-tags.scm" for language in LANGUAGES} <= shipped


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/app.py", "python"),
        ("stubs/app.pyi", "python"),
        ("web/index.js", "javascript"),
        ("web/Widget.jsx", "javascript"),
        ("web/tool.mjs", "javascript"),
        ("web/api.ts", "typescript"),
        ("web/Panel.tsx", "tsx"),
        ("cmd/main.go", "go"),
        ("src/lib.rs", "rust"),
        ("src/Main.java", "java"),
        ("src/util.c", "c"),
        ("include/util.h", "c"),
        ("src/cart.cpp", "cpp"),
        ("include/cart.hpp", "cpp"),
        ("Shop/Invoice.cs", "c_sharp"),
        ("lib/billing.rb", "ruby"),
        ("Rakefile", "ruby"),
        ("src/Invoice.php", "php"),
        ("app/Cart.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
        ("scripts/deploy.sh", "bash"),
        ("/home/me/.bashrc", "bash"),
        ("lib/shop/cart.ex", "elixir"),
        ("test/cart_test.exs", "elixir"),
        ("C:\\work\\app\\Main.PY", "python"),
        ("README.md", None),
        ("Makefile", None),
        ("data.json", None),
        ("", None),
        (".py", None),
    ],
)
def test_language_for_path(path: str, language: str | None) -> None:
    assert language_for_path(path) == language


def test_unknown_language_has_no_definitions() -> None:
    assert definitions("def f():\n    pass\n", "cobol") == []


def test_a_missing_grammar_is_an_error_not_an_absence(monkeypatch: pytest.MonkeyPatch) -> None:
    # Simulate a Python without tree-sitter-languages and without the
    # per-language package: symbols must not silently vanish.
    monkeypatch.setattr(grammars, "_bundled_library", lambda: None)
    monkeypatch.setitem(grammars._GRAMMARS, "ruby", ("ruby", "no_such_grammar_package", "language"))
    _clear_caches()
    try:
        with pytest.raises(GrammarUnavailable, match="install no-such-grammar-package"):
            definitions("def run\nend\n", "ruby")
    finally:
        monkeypatch.undo()
        _clear_caches()


def _clear_caches() -> None:
    grammars.language.cache_clear()
    symbols.tags_query.cache_clear()
    extraction.clear_caches()


def test_public_api_is_as_documented() -> None:
    assert sorted(symbols.__all__) == [
        "ChangeKind",
        "Definition",
        "MAX_SOURCE_CHARS",
        "SymbolChange",
        "SymbolKind",
        "changed_symbols",
        "definitions",
        "language_for_path",
        "symbols_in_edit",
        "symbols_in_hunks",
        "symbols_in_range",
        "tags_query",
    ]


def test_a_method_of_an_object_a_function_builds_is_no_definition_of_the_file() -> None:
    # `mk` returns an object literal with arrow-function properties: they are its body, not
    # methods `mk.info` the file defines; a named object literal's methods still are.
    source = (
        "const mk = () => { const o = {}; return {o, core: {\n"
        "  info: () => {}, fail: (m) => { o.failed = m } }} }\n"
        "const api = { load() { return 1 }, save: () => 2 }\n"
    )
    found = [(f.kind, f.name, f.container) for f in extraction.analyze(source, "javascript")]
    assert ("function", "mk", None) in found
    assert not any(name in ("info", "fail") for _, name, _ in found)
    assert ("method", "load", "api") in found and ("method", "save", "api") in found


def test_a_member_a_callback_stubs_is_no_definition_of_the_file() -> None:
    # A test stubs a prototype's method inside its callback, keeping the original and putting it
    # back: a patch made while the test runs.  A page handler exposing a function on `window`,
    # the file's own member assignments, those of a function called where it is written and a
    # constructor's `this.handler` still define.
    source = (
        "Foo.prototype.bar = function () { return 1; };\n"
        "exports.baz = () => 2;\n"
        "(function () {\n  Lib.prototype.qux = function () {};\n})();\n"
        "function Ctor() {\n  this.handler = function () {};\n}\n"
        'document.addEventListener("DOMContentLoaded", () => {\n'
        "  window.deleteThought = function (index) { thoughts.splice(index, 1); };\n"
        "});\n"
        'test("restores", async () => {\n'
        "  const original = Store.prototype.getSummary;\n"
        "  Store.prototype.getSummary = async function () { return null; };\n"
        "  try { await run(); } finally { Store.prototype.getSummary = original; }\n"
        "});\n"
    )
    for language in ("javascript", "typescript"):
        names = {f.name for f in extraction.analyze(source, language)}
        assert {"bar", "baz", "qux", "Ctor", "handler", "deleteThought"} <= names
        assert "getSummary" not in names
