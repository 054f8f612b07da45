"""Errors found in tool output, one family of output at a time, on realistic text."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.facts.errors import diagnostics
from artifact_index.facts.errors.diagnostics import (
    MAX_DIAGNOSTICS,
    Diagnostic,
    extract_errors,
    fallbacks,
)


def only(output: str, command: str | None = None) -> Diagnostic:
    found = extract_errors(output, command)
    assert len(found) == 1, found
    return found[0]


# --- Python tracebacks ----------------------------------------------------------------------

TRACEBACK = """\
Exit code 1
Loading settings from /home/dev/authsvc/.env
Starting token self-check...
Traceback (most recent call last):
  File "/home/dev/authsvc/scripts/check_tokens.py", line 18, in <module>
    main()
  File "/home/dev/authsvc/scripts/check_tokens.py", line 14, in main
    print(create_token({"name": "ada"}))
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/dev/authsvc/authsvc/auth.py", line 42, in create_token
    expires = claims["exp"]
              ~~~~~~^^^^^^^
KeyError: 'exp'
"""


def test_traceback_gives_exception_text_and_innermost_frame() -> None:
    error = only(TRACEBACK, "python scripts/check_tokens.py")
    assert error.message == "KeyError: 'exp'"
    assert error.kind == "python-traceback"
    assert (error.file, error.line, error.symbol) == (
        "/home/dev/authsvc/authsvc/auth.py",
        42,
        "create_token",
    )


def test_traceback_prefers_the_projects_frame_over_library_frames() -> None:
    output = """\
Traceback (most recent call last):
  File "reproduce_issue.py", line 13, in <module>
    ax.plot(dates, data)
  File "/testbed/lib/matplotlib/cbook/__init__.py", line 1327, in _check_1d
    ndim = x[:, None].ndim
  File "/opt/miniconda3/envs/testbed/lib/python3.8/site-packages/pandas/core/indexes/base.py", line 5199, in __getitem__
    disallow_ndim_indexing(result)
  File "/opt/miniconda3/envs/testbed/lib/python3.8/site-packages/pandas/core/indexers/utils.py", line 343, in disallow_ndim_indexing
    raise ValueError(
ValueError: Multi-dimensional indexing (e.g. `obj[:, None]`) is no longer supported.
"""
    error = only(output)
    assert error.message.startswith("ValueError: Multi-dimensional indexing")
    assert (error.file, error.line, error.symbol) == (
        "/testbed/lib/matplotlib/cbook/__init__.py",
        1327,
        "_check_1d",
    )


def test_chained_exceptions_report_the_last_one() -> None:
    output = """\
Traceback (most recent call last):
  File "/srv/app/config.py", line 12, in load
    return json.loads(raw)
  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/app/main.py", line 5, in <module>
    settings = load()
  File "/srv/app/config.py", line 14, in load
    raise ConfigError(f"bad config at {path}") from exc
app.config.ConfigError: bad config at /srv/app/settings.json
"""
    error = only(output)
    assert error.message == "app.config.ConfigError: bad config at /srv/app/settings.json"
    assert (error.file, error.line, error.symbol) == ("/srv/app/config.py", 14, "load")


def test_inline_code_traceback_names_no_file() -> None:
    output = """\
Exit code 1
Traceback (most recent call last):
  File "<string>", line 6, in <module>
  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
json.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 256 (char 255)
"""
    error = only(output, 'python3 -c "import json; ..."')
    assert error.message.startswith("json.decoder.JSONDecodeError: Unterminated string")
    assert error.file == "/usr/lib/python3.12/json/__init__.py"  # the only real file


def test_syntax_error_without_traceback_header() -> None:
    output = """\
  File "/work/app/models.py", line 27
    def save(self
                ^
SyntaxError: '(' was never closed
"""
    error = only(output, "python -m app.models")
    assert error.message == "SyntaxError: '(' was never closed"
    assert (error.file, error.line) == ("/work/app/models.py", 27)


def test_text_mentioning_traceback_is_not_an_error() -> None:
    output = 'grep result: docs/errors.md:3:Look for "Traceback (most recent call last):" in logs\n'
    assert extract_errors(output) == []


# --- pytest ------------------------------------------------------------------------------------

PYTEST = """\
============================= test session starts ==============================
platform linux -- Python 3.12.1, pytest-8.0.0, pluggy-1.4.0
rootdir: /home/dev/authsvc
collected 16 items

tests/test_auth.py ..F.........                                          [ 75%]
tests/test_tokens.py ...F                                                [100%]

=================================== FAILURES ===================================
__________________________________ test_login __________________________________

client = <FlaskClient <Flask 'authsvc'>>

    def test_login(client):
        resp = client.post("/login", json={"user": "ada", "password": "x"})
>       token = create_token(resp.json["user"])

tests/test_auth.py:31:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

user = {'name': 'ada'}

    def create_token(user):
        claims = dict(user)
>       expires = claims["exp"]
E       KeyError: 'exp'

authsvc/auth.py:42: KeyError
___________________________ TestRefresh.test_expired ___________________________

self = <tests.test_tokens.TestRefresh object at 0x7f3a2c1d9e10>

    def test_expired(self):
>       assert refresh("abc") is None
E       AssertionError: assert 'abc' is None
E        +  where 'abc' = refresh('abc')

tests/test_tokens.py:18: AssertionError
----------------------------- Captured stdout call -----------------------------
refreshing abc
=========================== short test summary info ============================
FAILED tests/test_auth.py::test_login - KeyError: 'exp'
FAILED tests/test_tokens.py::TestRefresh::test_expired - AssertionError: assert 'abc' is None
========================= 2 failed, 14 passed in 0.87s =========================
"""


def test_pytest_failures_link_to_the_innermost_location() -> None:
    login, expired = extract_errors(PYTEST, "pytest")
    assert login.kind == "pytest"
    assert login.test == "tests/test_auth.py::test_login"
    assert login.message == "KeyError: 'exp'"
    assert (login.file, login.line, login.symbol) == ("authsvc/auth.py", 42, "create_token")
    assert expired.test == "tests/test_tokens.py::TestRefresh::test_expired"
    assert expired.message == "AssertionError: assert 'abc' is None"
    assert (expired.file, expired.line, expired.symbol) == (
        "tests/test_tokens.py",
        18,
        "test_expired",
    )


def test_pytest_short_tracebacks_name_the_function() -> None:
    output = """\
=================================== FAILURES ===================================
_________________________________ test_parse __________________________________
tests/test_parser.py:9: in test_parse
    assert parse("1+") == 1
src/calc/parser.py:77: in parse
    raise ParseError(f"unexpected end at {pos}")
E   calc.parser.ParseError: unexpected end at 2
=========================== short test summary info ============================
FAILED tests/test_parser.py::test_parse - calc.parser.ParseError: unexpected end at 2
1 failed, 3 passed in 0.04s
"""
    error = only(output, "python -m pytest tests/test_parser.py --tb=short")
    assert error.message == "calc.parser.ParseError: unexpected end at 2"
    assert (error.file, error.line, error.symbol) == ("src/calc/parser.py", 77, "parse")


def test_pytest_collection_error() -> None:
    output = """\
============================= test session starts ==============================
collected 0 items / 1 error

==================================== ERRORS ====================================
____________________ ERROR collecting tests/test_export.py _____________________
ImportError while importing test module '/repo/tests/test_export.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
tests/test_export.py:3: in <module>
    from app.export import to_csv
E   ModuleNotFoundError: No module named 'app.export'
=========================== short test summary info ============================
ERROR tests/test_export.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.12s ===============================
"""
    error = only(output, "pytest")
    assert error.message == "ModuleNotFoundError: No module named 'app.export'"
    assert error.test == "tests/test_export.py"
    assert error.file == "tests/test_export.py"


def test_pytest_verbose_ids_without_summary() -> None:
    output = """\
tests/test_math.py::test_add PASSED                                      [ 50%]
tests/test_math.py::test_div FAILED                                      [100%]

=================================== FAILURES ===================================
___________________________________ test_div ___________________________________

    def test_div():
>       assert div(1, 0) == 0
E       ZeroDivisionError: division by zero

tests/test_math.py:8: ZeroDivisionError
========================= 1 failed, 1 passed in 0.02s ==========================
"""
    error = only(output, "pytest -v -rN")
    assert error.test == "tests/test_math.py::test_div"
    assert error.message == "ZeroDivisionError: division by zero"
    assert error.line == 8


# --- unittest -----------------------------------------------------------------------------------


def test_unittest_blocks() -> None:
    output = """\
Creating test database for alias 'default'...
System check identified no issues (0 silenced).
.F.E
======================================================================
ERROR: test_export (reports.tests.ExportTests.test_export)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/app/reports/tests.py", line 40, in test_export
    export(report)
  File "/app/reports/export.py", line 12, in export
    return render(report.rows)
AttributeError: 'Report' object has no attribute 'rows'

======================================================================
FAIL: test_plain_f_expression (queries.test_bulk_update.BulkUpdateTests)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/testbed/tests/queries/test_bulk_update.py", line 12, in test_plain_f_expression
    self.assertEqual(note.note, 'target')
AssertionError: 'F(misc)' != 'target'
- F(misc)
+ target


----------------------------------------------------------------------
Ran 4 tests in 0.031s

FAILED (failures=1, errors=1)
Destroying test database for alias 'default'...
"""
    error, failure = extract_errors(output, "python manage.py test")
    assert error.kind == failure.kind == "unittest"
    assert error.test == "reports.tests.ExportTests.test_export"
    assert error.message == "AttributeError: 'Report' object has no attribute 'rows'"
    assert (error.file, error.line, error.symbol) == ("/app/reports/export.py", 12, "export")
    assert failure.test == "queries.test_bulk_update.BulkUpdateTests.test_plain_f_expression"
    assert failure.message == "AssertionError: 'F(misc)' != 'target'"
    assert failure.line == 12


# --- compilers and type checkers -------------------------------------------------------------


def test_gcc_and_clang() -> None:
    output = """\
cc -Wall -O2 -c src/buffer.c -o build/buffer.o
src/buffer.c: In function 'buffer_push':
src/buffer.c:48:13: warning: unused variable 'old' [-Wunused-variable]
src/buffer.c:52:5: error: implicit declaration of function 'grow' [-Wimplicit-function-declaration]
   52 |     grow(buf, needed);
      |     ^~~~
src/buffer.h:3:10: fatal error: stdint2.h: No such file or directory
make: *** [Makefile:12: build/buffer.o] Error 1
"""
    grow, header = extract_errors(output, "make")
    assert (
        grow.message == "implicit declaration of function 'grow' [-Wimplicit-function-declaration]"
    )
    assert (grow.file, grow.line, grow.column, grow.kind, grow.tool) == (
        "src/buffer.c",
        52,
        5,
        "compiler",
        "gcc",
    )
    assert header.message == "stdint2.h: No such file or directory"
    assert extract_errors(output, "clang -c src/buffer.c")[0].tool == "clang"


def test_rustc_error_with_code_and_location() -> None:
    output = """\
   Compiling tokens v0.3.1 (/home/dev/tokens)
warning: unused import: `std::fmt`
 --> src/lib.rs:1:5
  |
1 | use std::fmt;
  |     ^^^^^^^^
error[E0308]: mismatched types
  --> src/claims.rs:27:22
   |
27 |         let exp: u64 = claims.get("exp");
   |                  ---   ^^^^^^^^^^^^^^^^^ expected `u64`, found `Option<&Value>`
   |
error: could not compile `tokens` (lib) due to 1 previous error; 1 warning emitted
"""
    error = only(output, "cargo build")
    assert (error.message, error.code, error.tool) == ("mismatched types", "E0308", "rustc")
    assert (error.file, error.line, error.column) == ("src/claims.rs", 27, 22)


def test_go_build_vet_and_golangci_lint() -> None:
    build = """\
[test] $ go test ./...
# entire.io/cli/cmd/entire/cli/strategy
cmd/entire/cli/strategy/session.go:256:29: undefined: plumbing
cmd/entire/cli/strategy/session.go:265:65: undefined: plumbing
FAIL	entire.io/cli/cmd/entire [build failed]
ok  	entire.io/cli/cmd/entire/cli/paths	0.617s
FAIL
"""
    first, second = extract_errors(build, "mise run test")
    assert (first.message, first.file, first.line, first.column) == (
        "undefined: plumbing",
        "cmd/entire/cli/strategy/session.go",
        256,
        29,
    )
    assert first.kind == "compiler" and first.tool == "go"
    assert second.line == 265

    vet = "# example.com/app\n./main.go:14:2: fmt.Printf format %d has arg name of wrong type string\n"
    assert only(vet, "go vet ./...").tool == "go vet"

    lint = (
        "[lint:go] cmd/entire/cli/wingman.go:181:10: error returned from external package is unwrapped (wrapcheck)\n"
        "1 issues:\n* wrapcheck: 1\n"
    )
    error = only(lint, "mise run lint")
    assert (error.kind, error.tool, error.code) == ("linter", "golangci-lint", "wrapcheck")
    assert error.message == "error returned from external package is unwrapped"


def test_tsc_both_output_formats() -> None:
    plain = """\
> web@0.1.0 typecheck
> tsc --noEmit

src/hooks/useTodos.test.ts(6,33): error TS2307: Cannot find module '@testing-library/react' or its corresponding type declarations.
src/components/Chart.tsx(52,15): error TS2345: Argument of type '{ time: number; }[]' is not assignable to parameter of type 'LineData[]'.
  Type '{ time: number; }' is not assignable to type 'LineData'.
"""
    module, argument = extract_errors(plain, "npm run typecheck")
    assert (module.code, module.file, module.line, module.column) == (
        "TS2307",
        "src/hooks/useTodos.test.ts",
        6,
        33,
    )
    assert argument.message.startswith("Argument of type '{ time: number; }[]'")
    assert argument.kind == "type-checker" and argument.tool == "tsc"

    pretty = """\
src/api/client.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'.

12     retries: "3",
       ~~~~~~~

Found 1 error in src/api/client.ts:12
"""
    error = only(pretty, "npx tsc")
    assert (error.code, error.file, error.line, error.column) == (
        "TS2322",
        "src/api/client.ts",
        12,
        5,
    )


def test_javac() -> None:
    output = """\
src/main/java/com/acme/Billing.java:27: error: cannot find symbol
        Invoice inv = repo.findInvoice(id);
                          ^
  symbol:   method findInvoice(long)
  location: variable repo of type InvoiceRepository
1 error
"""
    error = only(output, "javac -d out src/main/java/com/acme/Billing.java")
    assert (error.message, error.tool, error.kind) == ("cannot find symbol", "javac", "compiler")
    assert (error.file, error.line) == ("src/main/java/com/acme/Billing.java", 27)


def test_mypy_codes() -> None:
    output = """\
authsvc/auth.py:42: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]
authsvc/auth.py:42: note: See https://mypy.rtfd.io/en/stable/_refs.html#code-assignment
authsvc/tokens.py:9:5: error: Function is missing a return type annotation  [no-untyped-def]
Found 2 errors in 2 files (checked 14 source files)
"""
    assignment, untyped = extract_errors(output, "mypy authsvc")
    assert (
        assignment.message
        == 'Incompatible types in assignment (expression has type "str", variable has type "int")'
    )
    assert (assignment.code, assignment.tool, assignment.kind) == (
        "assignment",
        "mypy",
        "type-checker",
    )
    assert (untyped.line, untyped.column, untyped.code) == (9, 5, "no-untyped-def")


# --- linters ---------------------------------------------------------------------------------


def test_ruff_concise_and_full_formats() -> None:
    concise = """\
authsvc/auth.py:1:8: F401 [*] `os` imported but unused
authsvc/auth.py:40:89: E501 Line too long (112 > 88)
Found 2 errors.
[*] 1 fixable with the `--fix` option.
"""
    unused, long_line = extract_errors(concise, "ruff check .")
    assert (unused.code, unused.message, unused.tool, unused.kind) == (
        "F401",
        "`os` imported but unused",
        "ruff",
        "linter",
    )
    assert (long_line.line, long_line.column) == (40, 89)

    full = """\
F401 [*] `os` imported but unused
 --> authsvc/auth.py:1:8
  |
1 | import os
  |        ^^
2 | import jwt
  |
help: Remove unused import: `os`

Found 1 error.
"""
    error = only(full, "ruff check")
    assert (error.code, error.file, error.line, error.column) == ("F401", "authsvc/auth.py", 1, 8)


def test_eslint_stylish() -> None:
    output = """\

/home/dev/web/src/components/TodoList.tsx
  12:7   error    'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars
  30:5   warning  Unexpected console statement                 no-console

/home/dev/web/src/lib/api.ts
  4:1  error  Parsing error: Unexpected token

✖ 3 problems (2 errors, 1 warning)
"""
    unused, parsing = extract_errors(output, "npx eslint src")
    assert unused.file == "/home/dev/web/src/components/TodoList.tsx"
    assert (unused.line, unused.column, unused.code) == (12, 7, "@typescript-eslint/no-unused-vars")
    assert unused.message == "'unused' is assigned a value but never used"
    assert (parsing.file, parsing.message, parsing.code) == (
        "/home/dev/web/src/lib/api.ts",
        "Parsing error: Unexpected token",
        None,
    )


# --- test runners ----------------------------------------------------------------------------


def test_jest_blocks() -> None:
    output = """\
> web@0.1.0 test
> jest

PASS src/utils/format.test.ts
FAIL src/auth/token.test.ts
  ● AuthService › createToken › sets an expiry

    expect(received).toBeDefined()

    Received: undefined

      10 |   it('sets an expiry', () => {
      11 |     const token = createToken({ name: 'ada' });
    > 12 |     expect(token.exp).toBeDefined();
         |                       ^
      13 |   });

      at Object.<anonymous> (src/auth/token.test.ts:12:23)

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 7 passed, 8 total
Snapshots:   0 total
Time:        1.92 s
npm ERR! Test failed.  See above for more details.
"""
    error = only(output, "npm test")
    assert error.kind == "test-runner" and error.tool == "jest"
    assert error.test == "AuthService › createToken › sets an expiry"
    assert error.message == "expect(received).toBeDefined()"
    assert (error.file, error.line, error.column) == ("src/auth/token.test.ts", 12, 23)


def test_vitest_blocks() -> None:
    output = """\
 ❯ src/auth/token.test.ts (3 tests | 1 failed) 12ms
   × AuthService > sets an expiry 5ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/auth/token.test.ts > AuthService > sets an expiry
AssertionError: expected undefined to be defined
 ❯ src/auth/token.test.ts:12:23
     10|   it('sets an expiry', () => {
     11|     const token = createToken({ name: 'ada' });
     12|     expect(token.exp).toBeDefined();
       |                       ^

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed | 3 passed (4)
      Tests  1 failed | 11 passed (12)
"""
    error = only(output, "npx vitest run")
    assert error.tool == "vitest"
    assert error.test == "src/auth/token.test.ts > AuthService > sets an expiry"
    assert error.message == "AssertionError: expected undefined to be defined"
    assert (error.file, error.line) == ("src/auth/token.test.ts", 12)


def test_go_test_failures_with_and_without_verbose() -> None:
    quiet = """\
--- FAIL: TestResetCmd_WithForce (0.04s)
    reset_test.go:142: shadow branch should be deleted
--- FAIL: TestRewind (0.00s)
    --- FAIL: TestRewind/different_sessions (0.76s)
        rewind_test.go:470: expected session ID conflict error
FAIL
FAIL	entire.io/cli/cmd/entire/cli	0.441s
FAIL
"""
    reset, rewind = extract_errors(quiet, "go test ./...")
    assert (reset.test, reset.message, reset.file, reset.line) == (
        "TestResetCmd_WithForce",
        "shadow branch should be deleted",
        "reset_test.go",
        142,
    )
    assert rewind.test == "TestRewind/different_sessions"  # the failing leaf, not its parent
    assert rewind.symbol == "TestRewind"

    verbose = """\
=== RUN   TestHasUncommittedChanges
    git_operations_test.go:357: HasUncommittedChanges() = true, want false
--- FAIL: TestHasUncommittedChanges (0.04s)
=== RUN   TestOther
--- PASS: TestOther (0.00s)
FAIL
FAIL	entire.io/cli/cmd/entire/cli	0.397s
"""
    error = only(verbose, "go test -v ./cmd/entire/cli")
    assert error.message == "HasUncommittedChanges() = true, want false"
    assert (error.file, error.line) == ("git_operations_test.go", 357)


def test_go_panic() -> None:
    output = """\
--- FAIL: TestParse (0.00s)
panic: runtime error: index out of range [3] with length 3 [recovered]
	panic: runtime error: index out of range [3] with length 3

goroutine 7 [running]:
testing.tRunner.func1.2({0x5b2f80, 0xc000016150})
	/usr/local/go/src/testing/testing.go:1545 +0x238
example.com/calc.parseTokens(...)
	/home/dev/calc/parser.go:88 +0x1d4
example.com/calc.TestParse(0xc000007860)
	/home/dev/calc/parser_test.go:12 +0x45
FAIL	example.com/calc	0.005s
"""
    failure, panic = extract_errors(output, "go test ./...")
    assert failure.test == "TestParse"
    assert panic.message == "panic: runtime error: index out of range [3] with length 3"
    assert (panic.file, panic.line, panic.symbol) == ("/home/dev/calc/parser.go", 88, "parseTokens")


def test_cargo_test_new_and_old_panic_formats() -> None:
    new = """\
running 3 tests
test claims::tests::parses_exp ... ok
test claims::tests::rejects_missing_exp ... FAILED
test tokens::tests::roundtrip ... ok

failures:

---- claims::tests::rejects_missing_exp stdout ----
thread 'claims::tests::rejects_missing_exp' panicked at src/claims.rs:88:9:
assertion `left == right` failed
  left: Ok(0)
 right: Err(MissingExp)
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

failures:
    claims::tests::rejects_missing_exp

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
"""
    error = only(new, "cargo test")
    assert error.test == "claims::tests::rejects_missing_exp"
    assert error.message == "assertion `left == right` failed"
    assert (error.file, error.line, error.column, error.symbol) == (
        "src/claims.rs",
        88,
        9,
        "rejects_missing_exp",
    )

    old = """\
test parser::it_parses ... FAILED

failures:

---- parser::it_parses stdout ----
thread 'parser::it_parses' panicked at 'called `Option::unwrap()` on a `None` value', src/parser.rs:14:31

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out
"""
    error = only(old, "cargo test")
    assert error.message == "called `Option::unwrap()` on a `None` value"
    assert (error.file, error.line) == ("src/parser.rs", 14)


def test_exunit_failures_and_elixir_compile_errors() -> None:
    failures = """\
Running ExUnit with seed: 837521, max_cases: 32

....

  1) test transcript rows render as code (SpotterWeb.SessionLiveTest)
     test/spotter_web/live/session_live_test.exs:109
     ** (RuntimeError) no :secret_key_base configuration found in SpotterWeb.Endpoint.
     code: {:ok, _view, html} = live(build_conn(), "/sessions/1")
     stacktrace:
       (phoenix 1.8.3) lib/phoenix/token.ex:266: Phoenix.Token.get_endpoint_key_base/1

Finished in 1.8 seconds (1.2s async, 0.6s sync)
14 doctests, 68 tests, 1 failure
"""
    error = only(failures, "mix test")
    assert (
        error.message
        == "** (RuntimeError) no :secret_key_base configuration found in SpotterWeb.Endpoint."
    )
    assert (error.file, error.line) == ("test/spotter_web/live/session_live_test.exs", 109)
    assert error.test == "test transcript rows render as code (SpotterWeb.SessionLiveTest)"

    compile_error = """\
     error: undefined function assert_broadcast/2 (expected SpotterWeb.ReviewsChannelTest to define such a function or for it to be imported, but none are available)
     │
 104 │       assert_broadcast(
     │       ^^^^^^^^^^^^^^^^
     │
     └─ test/spotter_web/channels/reviews_channel_test.exs:104:7: SpotterWeb.ReviewsChannelTest."test broadcast_counts/0 broadcasts counts"/1


== Compilation error in file test/spotter_web/channels/reviews_channel_test.exs ==
** (CompileError) test/spotter_web/channels/reviews_channel_test.exs: cannot compile module SpotterWeb.ReviewsChannelTest (errors have been logged)
"""
    error = only(compile_error, "mix test")
    assert error.message.startswith("undefined function assert_broadcast/2")
    assert (error.file, error.line, error.column, error.tool) == (
        "test/spotter_web/channels/reviews_channel_test.exs",
        104,
        7,
        "elixir",
    )
    assert error.symbol == "test broadcast_counts/0 broadcasts counts"


def test_elixir_warnings_are_not_errors() -> None:
    output = """\
    warning: single-quoted strings represent charlists. Use ~c"" if you indeed want a charlist
    │
264 │   defp handle_token(lexer, original, doc, type, skip, _data, lines) when type in '-_' do
    │                                                                                  ~
    │
    └─ lib/decoder.ex:264:82
"""
    assert extract_errors(output, "mix compile") == []


# --- npm and the generic fallback -----------------------------------------------------------


def test_npm_error_alone_is_reported() -> None:
    output = """\
npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR!
npm ERR! While resolving: web@0.1.0
npm ERR! Found: react@18.2.0
npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-05-01-debug-0.log
"""
    error = only(output, "npm install")
    assert (error.kind, error.code, error.message) == (
        "npm",
        "ERESOLVE",
        "ERESOLVE unable to resolve dependency tree",
    )

    modern = 'npm error Missing script: "tset"\nnpm error\nnpm error Did you mean this?\n'
    assert only(modern, "npm run tset").message == 'Missing script: "tset"'


def test_npm_wrapper_yields_to_the_failure_it_wraps() -> None:
    output = """\
src/app.ts(3,1): error TS1005: ';' expected.
npm ERR! code ELIFECYCLE
npm ERR! errno 2
npm ERR! web@0.1.0 build: `tsc`
npm ERR! Exit status 2
"""
    assert [e.code for e in extract_errors(output, "npm run build")] == ["TS1005"]


def test_generic_fallback_only_when_nothing_specific() -> None:
    assert only(
        "Exit code 128\nfatal: The current branch spotter-gqc has no upstream branch.\n"
    ).message == ("fatal: The current branch spotter-gqc has no upstream branch.")
    assert (
        only("Error: Cannot find module 'left-pad'\nRequire stack:\n- /app/index.js\n").kind
        == "generic"
    )
    assert (
        only("bash: line 1: pytset: command not found\n").message
        == "bash: line 1: pytset: command not found"
    )
    # A traceback's own "Error:" line is not reported a second time as generic.
    assert [e.kind for e in extract_errors(TRACEBACK)] == ["python-traceback"]


def test_a_field_of_a_dumped_error_object_is_not_the_error() -> None:
    # A JavaScript client logged its error object: its `error` field is empty, the failure is
    # said above it.
    output = (
        "Error generating content via API. _GaxiosError: Permission denied on resource project.\n"
        "    at Gaxios._request (file:///lib/gaxios.js:20961:19) {\n"
        "  config: { url: 'https://example.test/v1:generate' },\n"
        "  error: undefined,\n"
        "  errors: [\n"
        "}\n"
    )
    assert all("undefined" not in e.message for e in extract_errors(output))


def test_nothing_to_report() -> None:
    assert extract_errors("") == []
    assert extract_errors("Exit code 1\n") == []
    assert extract_errors("All checks passed!\n") == []
    assert extract_errors("14 doctests, 65 tests, 0 failures\n") == []


# --- robustness ------------------------------------------------------------------------------


def test_colour_codes_and_crlf_are_ignored() -> None:
    coloured = "\x1b[1m\x1b[31merror[E0425]\x1b[0m\x1b[1m: cannot find value `x` in this scope\x1b[0m\r\n  \x1b[1m\x1b[34m--> \x1b[0msrc/main.rs:2:13\r\n"
    error = only(coloured, "cargo run")
    assert (error.code, error.message, error.file, error.line) == (
        "E0425",
        "cannot find value `x` in this scope",
        "src/main.rs",
        2,
    )


def test_repeated_errors_are_deduplicated_and_capped() -> None:
    repeated = TRACEBACK * 5
    assert len(extract_errors(repeated)) == 1
    many = "".join(
        f"src/gen/file{i}.ts({i + 1},1): error TS2304: Cannot find name 'global'.\n"
        for i in range(500)
    )
    found = extract_errors(many, "tsc")
    assert len(found) == MAX_DIAGNOSTICS
    assert found[0].file == "src/gen/file0.ts"


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("aE:/.\n \t()[]'\"-_>|●›✕0123456789rFILTbackpy")),
        max_size=400,
    )
)
def test_never_raises_on_arbitrary_text(text: str) -> None:
    extract_errors(text, "pytest")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(TRACEBACK.splitlines() + PYTEST.splitlines()), max_size=60))
def test_never_raises_on_shuffled_real_lines(lines: list[str]) -> None:
    for found in extract_errors("\n".join(lines), "pytest"):
        assert found.message


def test_one_megabyte_outputs_are_fast() -> None:
    log_line = "2024-05-01 12:00:00 INFO worker processed job 1234 in 12ms (queue=default)\n"
    noisy = (log_line * 13000)[:1_000_000] + TRACEBACK
    hostile = [
        ("a" * 999_000) + "\nerror: boom\n",  # one enormous line
        "error: " * 140_000,  # a marker on every few characters of one line
        ('  File "x.py", line 1, in f\n' * 35_000) + "Traceback (most recent call last):\n",
        "Traceback (most recent call last):\n" * 28_000,
        "FAIL src/a.test.ts > b > c\n" * 38_000,
        "--- FAIL: TestX (0.00s)\n" * 40_000,
    ]
    for output in [noisy, *hostile]:
        # CPU time, not wall-clock: a busy machine must not fail a test of the algorithm's cost.
        started = time.process_time()
        extract_errors(output, "pytest")
        assert time.process_time() - started < 2.0, output[:40]
    assert extract_errors(noisy)[0].message == "KeyError: 'exp'"


def test_traceback_interleaved_with_stdout() -> None:
    output = """\
<returncode>1</returncode>
<output>
Traceback (most recent call last):
  File "/testbed/reproduce_issue.py", line 50, in <module>
X Axis:
  Limits: (-0.1, 2.1)
    check_nominal_scale()
  File "/testbed/reproduce_issue.py", line 27, in check_nominal_scale
    print(ax.xaxis._gridOnMajor)
AttributeError: 'XAxis' object has no attribute '_gridOnMajor'
</output>
"""
    error = only(output, "python reproduce_issue.py")
    assert error.kind == "python-traceback"
    assert (error.line, error.symbol) == (27, "check_nominal_scale")


def test_uncaught_javascript_error() -> None:
    output = """\
Chunk ID: 2238c8
Process exited with code 1
Output:
file:///home/dev/agentv/scripts/smoke.mjs:14
  sdk.registerBuiltInApiProviders();
      ^

TypeError: sdk.registerBuiltInApiProviders is not a function
    at main (file:///home/dev/agentv/scripts/smoke.mjs:14:7)
    at file:///home/dev/agentv/node_modules/tsx/dist/loader.mjs:3:12
    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)

Node.js v22.3.0
"""
    error = only(output, "node scripts/smoke.mjs")
    assert error.message == "TypeError: sdk.registerBuiltInApiProviders is not a function"
    assert (error.file, error.line, error.column, error.tool) == (
        "/home/dev/agentv/scripts/smoke.mjs",
        14,
        7,
        "node",
    )


def test_every_marker_a_family_looks_for_passes_the_quick_filter() -> None:
    # extract_errors skips outputs holding no trigger; a family reading a marker the
    # filter does not know would silently never run.
    # Every module of the package is read: the families live one module per language.
    modules = [
        importlib.import_module(f"{diagnostics.__name__}.{info.name}")
        for info in pkgutil.iter_modules(diagnostics.__path__)
    ]
    assert {"python", "javascript", "go", "rust", "elixir", "compilers", "fallbacks"} <= {
        module.__name__.rsplit(".", 1)[-1] for module in modules
    }
    used = {
        argument.value
        for module in [diagnostics, *modules]
        for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "lines"
        for argument in node.args
        if isinstance(argument, ast.Constant)
    }
    known = set(diagnostics._TRIGGERS) | set(diagnostics._SECONDARY)
    assert len(used) > 10 and used <= known, used - known
    for markers in (fallbacks.GENERIC_MARKERS, fallbacks.SHELL_NEEDLES):
        assert set(markers) <= set(diagnostics._TRIGGERS)


# A VS Code extension's `pnpm test`: mocha's report, then the test host's own log, whose certificate
# complaint is printed by every run, passing or not.
MOCHA_IN_TEST_HOST = """\
> ext@0.0.1 test /work/ext
> vscode-test

  Transcript Parsing
    ✔ parses message fields
    1) keeps malformed lines as fallback rows
  Checkpoint Module
    2) builds session cards
  1 passing (6s)
  2 failing
  1) Transcript Parsing
       keeps malformed lines as fallback rows:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

false !== true

      + expected - actual

      -false
      +true
  \tat Context.<anonymous> (out/test/transcript.test.js:73:16)
  \tat process.processImmediate (node:internal/timers:484:21)

  2) Checkpoint Module
       builds session cards:
     Error: Timeout of 2000ms exceeded.
  \tat listOnTimeout (node:internal/timers:573:17)

Exit code:   1
 ELIFECYCLE  Test failed. See above for more details.
[24933:0408/145927.105591:ERROR:net/cert/internal/trust_store_mac.cc:807] Error parsing certificate:
ERROR: Failed parsing extensions
2 tests failed.
"""


def test_mocha_failures_are_the_report_not_the_hosts_log() -> None:
    found = extract_errors(MOCHA_IN_TEST_HOST, "pnpm test")
    assert [(d.tool, d.kind, d.test) for d in found] == [
        ("mocha", "test-runner", "Transcript Parsing keeps malformed lines as fallback rows"),
        ("mocha", "test-runner", "Checkpoint Module builds session cards"),
    ]
    first, second = found
    assert first.message == (
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: false !== true"
    )
    assert (first.file, first.line, first.symbol) == (
        "out/test/transcript.test.js",
        73,
        "keeps malformed lines as fallback rows",
    )
    assert second.message == "Error: Timeout of 2000ms exceeded."
    assert second.file is None  # only node's own frames


def test_mocha_numbers_outside_its_report_are_not_failures() -> None:
    # Numbered lines before the count (the run's tree) or past the count announced are not failures.
    output = "  1) a step\n  0 passing\n  1 failing\n  1) Suite\n       case:\n     Error: boom\n  2) other\n"
    assert [d.test for d in extract_errors(output)] == ["Suite case"]


def test_a_nextjs_build_type_error_names_its_place_on_the_line_above() -> None:
    build = """\
✓ Compiled successfully in 2.5s
  Running TypeScript  ..Failed to type check.

./components/dashboard/client.tsx:19:3
Type error: Type 'unknown' is not assignable to type 'string'.

  17 |
> 19 |   id: db.id,
     |   ^
Next.js build worker exited with code: 1 and signal: null
"""
    error = only(build, "npm run build")
    assert (error.kind, error.tool, error.file, error.line, error.column) == (
        "type-checker",
        "tsc",
        "./components/dashboard/client.tsx",
        19,
        3,
    )
    assert error.message == "Type 'unknown' is not assignable to type 'string'."
