"""Which definitions a change added, modified or removed, with and without full contents."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artifact_index.facts.symbols.definitions import (
    MAX_SOURCE_CHARS,
    SymbolChange,
    changed_symbols,
    definitions,
    symbols_in_edit,
    symbols_in_hunks,
    symbols_in_range,
)

Change = tuple[str, str, str | None, str]


def _changes(found: list[SymbolChange]) -> set[Change]:
    return {(c.change, c.kind, c.container, c.name) for c in found}


AUTH_BEFORE = textwrap.dedent(
    '''\
    import time


    class AuthService:
        """Issues and checks tokens."""

        ttl = 60

        def __init__(self, secret):
            self.secret = secret

        def create_token(self, user):
            return f"{user}:{self.secret}:{time.time()}"

        def revoke(self, token):
            self.revoked.add(token)


    def helper(value):
        return value.strip()
    '''
)


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


# --- full before and after ---------------------------------------------------


def test_method_changed_inside_a_class_is_reported_with_its_class() -> None:
    after = _edit(AUTH_BEFORE, "{time.time()}", "{int(time.time())}")
    assert _changes(changed_symbols(AUTH_BEFORE, after, "src/auth.py")) == {
        ("modified", "method", "AuthService", "create_token"),
    }


def test_added_modified_and_removed_in_one_change() -> None:
    after = _edit(
        AUTH_BEFORE,
        "    def revoke(self, token):\n        self.revoked.add(token)\n",
        "    def refresh(self, token):\n        return self.create_token(token)\n",
    )
    after = _edit(after, "return value.strip()", "return value.strip().lower()")
    assert _changes(changed_symbols(AUTH_BEFORE, after, "src/auth.py")) == {
        ("added", "method", "AuthService", "refresh"),
        ("removed", "method", "AuthService", "revoke"),
        ("modified", "function", None, "helper"),
    }


def test_class_body_change_outside_methods_modifies_the_class_only() -> None:
    after = _edit(AUTH_BEFORE, "ttl = 60", "ttl = 120")
    assert _changes(changed_symbols(AUTH_BEFORE, after, "auth.py")) == {
        ("modified", "class", None, "AuthService"),
    }


def test_added_method_does_not_modify_its_class() -> None:
    after = _edit(
        AUTH_BEFORE,
        "    def revoke(self, token):",
        "    def expire(self):\n        self.revoked.clear()\n\n    def revoke(self, token):",
    )
    assert _changes(changed_symbols(AUTH_BEFORE, after, "auth.py")) == {
        ("added", "method", "AuthService", "expire"),
    }


def test_created_and_deleted_files() -> None:
    everything = {
        ("class", None, "AuthService"),
        ("method", "AuthService", "__init__"),
        ("method", "AuthService", "create_token"),
        ("method", "AuthService", "revoke"),
        ("function", None, "helper"),
    }
    created = changed_symbols(None, AUTH_BEFORE, "auth.py")
    assert _changes(created) == {("added", *item) for item in everything}
    deleted = changed_symbols(AUTH_BEFORE, None, "auth.py")
    assert _changes(deleted) == {("removed", *item) for item in everything}
    assert _changes(changed_symbols("", AUTH_BEFORE, "auth.py")) == _changes(created)


def test_no_change_layout_change_and_reordering_report_nothing() -> None:
    assert changed_symbols(AUTH_BEFORE, AUTH_BEFORE, "auth.py") == []
    spaced = _edit(
        AUTH_BEFORE, "        self.secret = secret\n", "        self.secret = secret   \n\n"
    )
    assert changed_symbols(AUTH_BEFORE, spaced, "auth.py") == []
    first = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    swapped = "def b():\n    return 2\n\n\ndef a():\n    return 1\n"
    assert changed_symbols(first, swapped, "m.py") == []


def test_inserted_function_repeating_its_neighbour_leaves_the_neighbour_alone() -> None:
    # difflib aligns this insertion so that its hunk starts inside `first`;
    # comparing definition texts does not blame `first`.
    before = "def first():\n    return 1\n\ndef last():\n    return 2\n"
    after = (
        "def first():\n    return 1\n\ndef middle():\n    return 1\n\ndef last():\n    return 2\n"
    )
    assert _changes(changed_symbols(before, after, "m.py")) == {
        ("added", "function", None, "middle"),
    }


def test_renamed_function_is_removed_and_added() -> None:
    after = _edit(AUTH_BEFORE, "def helper(value)", "def clean(value)")
    assert _changes(changed_symbols(AUTH_BEFORE, after, "auth.py")) == {
        ("removed", "function", None, "helper"),
        ("added", "function", None, "clean"),
    }


def test_definitions_sharing_a_name_are_compared_together() -> None:
    before = textwrap.dedent(
        """\
        defmodule Cart do
          def add(cart, item) when is_map(item), do: [item | cart]
          def add(cart, _), do: cart
        end
        """
    )
    one_clause_changed = before.replace("do: cart\n", "do: {:error, cart}\n")
    assert _changes(changed_symbols(before, one_clause_changed, "lib/cart.ex")) == {
        ("modified", "function", "Cart", "add"),
    }
    clauses_swapped = textwrap.dedent(
        """\
        defmodule Cart do
          def add(cart, _), do: cart
          def add(cart, item) when is_map(item), do: [item | cart]
        end
        """
    )
    assert changed_symbols(before, clauses_swapped, "lib/cart.ex") == []


GO_BEFORE = """package store

type Store struct {
	items map[string]string
}

func (s *Store) Get(key string) string {
	return s.items[key]
}

func New() *Store {
	return &Store{items: map[string]string{}}
}
"""


def test_go_method_is_modified_under_its_receiver() -> None:
    after = GO_BEFORE.replace("return s.items[key]", "value := s.items[key]\n\treturn value")
    after += "\nfunc (s *Store) Delete(key string) {\n\tdelete(s.items, key)\n}\n"
    assert _changes(changed_symbols(GO_BEFORE, after, "store/store.go")) == {
        ("modified", "method", "Store", "Get"),
        ("added", "method", "Store", "Delete"),
    }


def test_rust_attribute_belongs_to_its_item() -> None:
    before = "struct Point {\n    x: i64,\n}\n\nimpl Point {\n    fn x(&self) -> i64 {\n        self.x\n    }\n}\n"
    after = "#[derive(Debug)]\n" + before.replace("self.x\n", "self.x + 0\n")
    assert _changes(changed_symbols(before, after, "src/point.rs")) == {
        ("modified", "struct", None, "Point"),
        ("modified", "method", "Point", "x"),
    }


def test_typescript_interface_and_class_changes() -> None:
    before = (
        "export interface Repo {\n  find(id: string): User;\n}\n\n"
        "export class Users implements Repo {\n  find(id: string): User {\n"
        "    return this.cache[id];\n  }\n}\n"
    )
    after = before.replace(
        "  find(id: string): User;\n", "  find(id: string): User;\n  all(): User[];\n"
    )
    after = after.replace("return this.cache[id];", "return this.cache[id] ?? load(id);")
    assert _changes(changed_symbols(before, after, "web/users.ts")) == {
        ("added", "method", "Repo", "all"),
        ("modified", "method", "Users", "find"),
    }


def test_windows_line_endings_do_not_matter() -> None:
    after = _edit(AUTH_BEFORE, "ttl = 60", "ttl = 61")
    crlf = changed_symbols(AUTH_BEFORE.replace("\n", "\r\n"), after.replace("\n", "\r\n"), "a.py")
    assert _changes(crlf) == {("modified", "class", None, "AuthService")}


# --- edits without full contents --------------------------------------------


def test_edit_of_a_whole_method_without_context() -> None:
    old = '    def create_token(self, user):\n        return f"{user}:{self.secret}"\n'
    new = '    def create_token(self, user, ttl):\n        return f"{user}:{ttl}"\n'
    # Without the class line the method cannot be placed in its class.
    assert _changes(symbols_in_edit(old, new, "auth.py")) == {
        ("modified", "function", None, "create_token"),
    }


def test_edit_adding_and_removing_definitions_in_partial_code() -> None:
    # The snippet starts inside one method and ends in the header of the next:
    # tree-sitter still finds the complete definitions in between.
    old = textwrap.dedent(
        """\
                return self.secret

            def revoke(self, token):
                self.revoked.add(token)

            def audit(self):"""
    )
    new = textwrap.dedent(
        """\
                return self.secret

            def refresh(self, token):
                return token

            def audit(self):"""
    )
    assert _changes(symbols_in_edit(old, new, "auth.py")) == {
        ("added", "function", None, "refresh"),
        ("removed", "function", None, "revoke"),
    }


def test_edit_inside_a_body_needs_context() -> None:
    old = 'return f"{user}:{self.secret}:{time.time()}"'
    new = 'return f"{user}:{self.secret}:{int(time.time())}"'
    assert symbols_in_edit(old, new, "auth.py") == []
    placed = {("modified", "method", "AuthService", "create_token")}
    assert _changes(symbols_in_edit(old, new, "auth.py", context=AUTH_BEFORE)) == placed
    after = _edit(AUTH_BEFORE, old, new)
    assert _changes(symbols_in_edit(old, new, "auth.py", context=after)) == placed


def test_context_places_snippet_definitions_in_their_class() -> None:
    old = "    def revoke(self, token):\n        self.revoked.add(token)\n"
    new = old + "\n    def refresh(self, token):\n        return token\n"
    assert _changes(symbols_in_edit(old, new, "auth.py", context=AUTH_BEFORE)) == {
        ("added", "method", "AuthService", "refresh"),
    }


def test_appending_to_the_end_of_a_method() -> None:
    old = "        self.revoked.add(token)\n"
    new = "        self.revoked.add(token)\n        self.log(token)\n"
    expected = {("modified", "method", "AuthService", "revoke")}
    assert _changes(symbols_in_edit(old, new, "auth.py", context=AUTH_BEFORE)) == expected
    after = _edit(AUTH_BEFORE, old, new)
    assert _changes(symbols_in_edit(old, new, "auth.py", context=after)) == expected


def test_new_text_already_elsewhere_in_the_file_does_not_mislead() -> None:
    # The same fix was applied to `first` earlier; now it is applied to `second`.
    before = textwrap.dedent(
        """\
        def first(items):
            return sorted(items, key=str)


        def second(items):
            return sorted(items)
        """
    )
    old, new = "return sorted(items)", "return sorted(items, key=str)"
    assert _changes(symbols_in_edit(old, new, "m.py", context=before)) == {
        ("modified", "function", None, "second"),
    }


def test_replace_all_edit_touches_every_occurrence() -> None:
    old, new = "self.secret", "self._secret"
    assert _changes(symbols_in_edit(old, new, "auth.py", context=AUTH_BEFORE)) == {
        ("modified", "method", "AuthService", "__init__"),
        ("modified", "method", "AuthService", "create_token"),
    }
    source = (
        "def a(x):\n    return log(x)\n\n\ndef b(y):\n    return log(y)\n\n\ndef c():\n    pass\n"
    )
    assert _changes(symbols_in_edit("return log(", "return trace(", "m.py", context=source)) == {
        ("modified", "function", None, "a"),
        ("modified", "function", None, "b"),
    }


def test_snippet_not_in_context_falls_back_to_the_snippet() -> None:
    old = "def helper(value):\n    return value\n"
    new = "def helper(value):\n    return value or ''\n"
    assert _changes(symbols_in_edit(old, new, "auth.py", context="unrelated = 1\n")) == {
        ("modified", "function", None, "helper"),
    }


def test_insertion_and_deletion_edits() -> None:
    inserted = "\n\ndef extra():\n    return 0\n"
    assert _changes(symbols_in_edit(None, inserted, "auth.py")) == {
        ("added", "function", None, "extra"),
    }
    assert _changes(symbols_in_edit(inserted, "", "auth.py")) == {
        ("removed", "function", None, "extra"),
    }


def test_edit_of_text_without_definitions_and_without_context_reports_nothing() -> None:
    assert symbols_in_edit("import os\n", "import os\nimport sys\n", "auth.py") == []
    assert symbols_in_edit("x", "x", "auth.py") == []
    assert symbols_in_edit("a", "b", "notes.txt", context="a") == []


def test_elixir_clause_edit_without_context() -> None:
    old = '  def handle_event("save", params, socket) do\n    {:noreply, socket}\n  end\n'
    new = '  def handle_event("save", params, socket) do\n    {:noreply, assign(socket, params)}\n  end\n'
    assert _changes(symbols_in_edit(old, new, "lib/live.ex")) == {
        ("modified", "function", None, "handle_event"),
    }


# --- reads ------------------------------------------------------------------


def test_read_window_of_a_known_file() -> None:
    seen = symbols_in_range(AUTH_BEFORE, "auth.py", 12, 13)
    assert [(d.kind, d.container, d.name) for d in seen] == [
        ("class", None, "AuthService"),
        ("method", "AuthService", "create_token"),
    ]
    everything = symbols_in_range(AUTH_BEFORE, "auth.py", None, None)
    assert [d.name for d in everything] == [d.name for d in definitions(AUTH_BEFORE, "python")]
    tail = symbols_in_range(AUTH_BEFORE, "auth.py", 19, None)
    assert [d.name for d in tail] == ["helper"]


def test_read_of_a_window_only_reports_file_line_numbers() -> None:
    lines = AUTH_BEFORE.splitlines(keepends=True)
    window = "".join(lines[11:17])  # file lines 12-17: two methods, no class line
    seen = symbols_in_range(window, "auth.py", None, None, first_line=12)
    assert [(d.name, d.start_line, d.end_line) for d in seen] == [
        ("create_token", 12, 13),
        ("revoke", 15, 16),
    ]


def test_read_of_an_unknown_file_type_reports_nothing() -> None:
    assert symbols_in_range("# Title\n\ntext\n", "README.md", 1, 3) == []


# --- robustness -------------------------------------------------------------


GARBAGE = [
    "",
    "\x00\x01\x02binary\x00",
    "\ud800 lone surrogate def f(): pass",
    "def (((((((((",
    "}" * 500 + "{" * 500,
    "(" * 20_000,  # too deep to query in reasonable time: skipped
    "class " * 1000,
    "\u202e\u0000\ufeffdef f():\n\tpass\n",
    "".join(chr(random.Random(7).randrange(1, 0x2FFF)) for _ in range(5000)),
]


def test_garbage_never_raises() -> None:
    paths = ["a.py", "a.go", "a.ts", "a.tsx", "a.rs", "a.c", "a.cpp", "a.ex", "a.kt", "a.unknown"]
    for path in paths:
        for text in GARBAGE:
            changed_symbols(text, AUTH_BEFORE, path)
            changed_symbols(None, text, path)
            symbols_in_edit(text, "def f():\n    pass\n", path, context=text)
            symbols_in_range(text, path, -5, 10**9)


def test_binary_and_oversized_inputs_give_nothing() -> None:
    assert changed_symbols(None, "def f():\n    pass\n\x00", "a.py") == []
    assert changed_symbols("\x00", "def f():\n    pass\n", "a.py") == []
    huge = "def f():\n    pass\n" * (MAX_SOURCE_CHARS // 10)
    assert len(huge) > MAX_SOURCE_CHARS
    assert definitions(huge, "python") == []
    assert changed_symbols(huge, huge + "x", "a.py") == []


# The bash grammar reads memory it does not own when "{" is followed by a
# character past the BMP: some runs crash the process (a segfault, so the
# sweep runs in a process of its own), most survive.
_BRACE_SWEEP = """
from artifact_index.facts.symbols.definitions import changed_symbols
for point in range(0x10000, 0x110000, 997):
    changed_symbols(None, "{" + chr(point), "m.sh")
    changed_symbols("x{" + chr(point) + "function ", "f() {\\n  x\\n}\\n{" + chr(point), "m.sh")
print("survived")
"""


def test_a_shell_script_with_any_character_after_a_brace_is_read_without_crashing() -> None:
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", _BRACE_SWEEP], capture_output=True, text=True, check=False
        )
        assert (done.returncode, done.stdout.strip()) == (0, "survived"), done.stderr[-2000:]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=st.one_of(st.none(), st.text(max_size=300)),
    after=st.one_of(st.none(), st.text(max_size=300)),
    path=st.sampled_from(["m.py", "m.js", "m.go", "m.rb", "m.php", "m.sh", "x.bin"]),
)
def test_any_text_is_accepted(before: str | None, after: str | None, path: str) -> None:
    for change in changed_symbols(before, after, path):
        assert change.change in {"added", "modified", "removed"}
    symbols_in_edit(before, after, path, context=after)
    symbols_in_range(after or "", path, None, 3)


def test_a_statement_in_an_edit_fragment_is_never_a_definition() -> None:
    # Parsed on its own, the tail of a method reads as a class body: tree-sitter
    # recovers `if (x) { ... }` as a method named `if`.
    old = "\t\t}\n\t}\n\n\tprivate build(): void {\n\t\tz();\n\t}\n"
    new = (
        "\t\t}\n\t\tif (x) {\n\t\t\treturn;\n\t\t}\n\t}\n\n"
        "\tprivate build(): void {\n\t\tif (y) {\n\t\t\tz();\n\t\t}\n\t}\n"
    )
    assert all(change.name != "if" for change in symbols_in_edit(old, new, "src/panel.ts"))
    in_class = symbols_in_edit(
        "class A {\n  run() {\n    x();\n  }\n}\n",
        "class A {\n  run() {\n    x();\n  }\n  if (x) {\n    y();\n  }\n}\n",
        "src/a.ts",
    )
    assert [(c.name, c.change) for c in in_class] == [("A", "modified")]


# --- an edit's texts parsed on their own --------------------------------------


def test_an_old_text_cut_before_its_components_end_keeps_its_nested_functions() -> None:
    # The old text stops before the component's closing `};`, the new one includes it: the
    # old side's parse loses the component, and its nested functions float free.
    old = textwrap.dedent(
        """\
        export const SignUpForm: React.FC = () => {
          const [email, setEmail] = useState("");
          const validate = () => {
            if (password !== confirmPassword) {
              return false;
            }
            return Boolean(email);
          };
          const handleSubmit = async (e: React.FormEvent) => {
            e.preventDefault();
            if (!validate()) return;
          };
          return (
            <form onSubmit={handleSubmit}>
              <p>Already have an account?</p>
            </form>
          );
        """
    )
    new = textwrap.dedent(
        """\
        export const SignUpForm: React.FC = () => {
          const [email, setEmail] = useState("");
          const validate = () => {
            return Boolean(email);
          };
          const handleSubmit = async (e: React.FormEvent) => {
            e.preventDefault();
            if (!validate()) return;
          };
          return (
            <form onSubmit={handleSubmit}>
              <p>Have an account?</p>
            </form>
          );
        };
        """
    )
    found = _changes(symbols_in_edit(old, new, "signup-form.tsx"))
    assert not {c for c in found if c[0] in ("added", "removed")}
    assert ("modified", "function", "SignUpForm", "validate") in found


def test_a_signature_change_in_an_edit_is_no_removal() -> None:
    # The new text's parse does not find the function whose parameters changed (the piece ends
    # inside unclosed blocks): its first line up to its name is still there, so it was modified.
    old = (
        "func snapshotSource(ctx context.Context, repo string) ([]string, error) {\n"
        "\tif useHead {\n\t\treturn nil, nil\n\t}\n\treturn walk(repo)\n}\n"
    )
    new = (
        "func snapshotSource(ctx context.Context, repo string, ignore []string) ([]string, error) {\n"
        "\tif useHead {\n\t\tif err != nil {\n"
        "\terr := filepath.WalkDir(repo, func(path string, entry fs.DirEntry, err error) error {\n"
        "\t\tif entry.IsDir() {\n\t\t\tswitch name {\n"
        '\t\t\tcase ".git", "vendor":\n\t\t\t\tif err != nil {\n'
    )
    assert _changes(symbols_in_edit(old, new, "provider.go")) == {
        ("modified", "function", None, "snapshotSource")
    }


def test_a_definition_on_a_context_line_of_a_patch_is_not_added() -> None:
    # A hunk whose last context line is the first line of the next method: the old side reads
    # it nested in the unclosed method above, the new side after the methods the hunk adds.
    old = textwrap.dedent(
        """\
          def publish(user:)
            FileUtils.mkdir_p(dns_dir(user))
          rescue => e
            raise Error, e.message
          def atomic_write(path, content)
            File.write(path, content)
          end

          def dns_dir(user)
        """
    )
    new = textwrap.dedent(
        """\
          def publish(user:)
            ensure_dir(dns_dir(user))
          rescue => e
            raise Error, e.message
          def atomic_write(path, content)
            File.write(path, content)
          end

          def ensure_dir(path)
            FileUtils.mkdir_p(path)
          end

          def dns_dir(user)
        """
    )
    found = _changes(symbols_in_hunks([(old, new)], "dns_manager.rb"))
    assert ("added", "method", None, "ensure_dir") in found or (
        "added",
        "function",
        None,
        "ensure_dir",
    ) in found
    assert not {c for c in found if c[3] == "dns_dir"}


def test_each_hunk_of_a_diff_is_read_on_its_own() -> None:
    # Joined, the first hunk's type (cut before its closing brace) holds the second hunk's
    # class members: "SessionTreeCard.constructor modified", a member it never had.  On its
    # own, closed where the hunk stops, it is the type a field was added to.
    hunks = [
        (
            "export type SessionTreeCard = {\n\tid: string;\n\tlabel: string;\n",
            "export type SessionTreeCard = {\n\tid: string;\n\tlabel: string;\n\tkind: string;\n",
        ),
        (
            "\tconstructor(private readonly mode: Mode) {}\n\n\tdebug(): void {\n\t\tlog(this.mode);\n\t}\n",
            "\tconstructor() {}\n\n\tdebug(): void {\n\t\tlog();\n\t}\n",
        ),
        (
            "function renderToolIcon(): string {\n\treturn icon;\n}\n",
            "function formatActorLabel(actor: Actor): string {\n\treturn actor.name;\n}\n",
        ),
    ]
    assert _changes(symbols_in_hunks(hunks, "panel.ts")) == {
        ("modified", "type", None, "SessionTreeCard"),
        ("added", "function", None, "formatActorLabel"),
        ("removed", "function", None, "renderToolIcon"),
    }


def test_a_call_of_a_method_is_not_its_first_line() -> None:
    # The old text calls `reset();`; the new one defines `reset() {`: added, not modified.
    old = "class Timer {\n  start() {\n    reset();\n  }\n"
    new = old + "\n  reset() {\n    this.count = 0;\n  }\n"
    assert _changes(symbols_in_edit(old, new, "timer.ts")) == {
        ("added", "method", "Timer", "reset")
    }


def test_a_hunk_that_stops_inside_a_function_still_shows_it() -> None:
    # The hunk renames a function and ends three lines into its body: closed where it stops,
    # each side parses as the function it begins.
    hunk = (
        "function classifyTurnActor(\n\trecord: Item,\n\ttext: string,\n): Actor {\n"
        '\tif (!record) {\n\t\treturn "system";\n',
        "function classifyRenderableActor(\n\trecord: Item,\n): Actor | undefined {\n"
        "\tif (!record) {\n\t\treturn undefined;\n",
    )
    assert _changes(symbols_in_hunks([hunk], "transcript.ts")) == {
        ("added", "function", None, "classifyRenderableActor"),
        ("removed", "function", None, "classifyTurnActor"),
    }


def test_a_piece_whose_brackets_cannot_be_counted_is_not_closed() -> None:
    # A quote inside a regular expression leaves a "string" open to the end of its line: the
    # count is wrong, so nothing is closed, and `validate`, unchanged on both sides, is no change.
    old = (
        "  const strength = useMemo(() => {\n"
        '    const symbol = /[0-9!@#$%^&*(),.?":{}|<>]/.test(password);\n'
        "    return symbol;\n  }, [password]);\n\n  const validate = () => {\n"
    )
    new = "  const [busy, setBusy] = useState(false);\n\n  const validate = () => {\n"
    assert "validate" not in {name for *_, name in _changes(symbols_in_edit(old, new, "f.tsx"))}


def test_a_definition_only_re_indented_in_a_braced_language_is_unchanged() -> None:
    # An `if`/`else` around the call turned into a ternary: the callback inside moved right, no more.
    old = textwrap.dedent(
        """\
        if (moving) {
          controls = animate(x, {
            onComplete: () => {
              setMoving(false);
            },
          });
        }
        """
    )
    new = textwrap.dedent(
        """\
        const controls = moving
          ? animate(x, {
              onComplete: () => {
                setMoving(false);
              },
            })
          : null;
        """
    )
    assert [c.name for c in symbols_in_edit(old, new, "src/slider.tsx")] == []
    changed = new.replace("setMoving(false)", "setMoving(true)")
    assert [c.name for c in symbols_in_edit(old, changed, "src/slider.tsx")] == ["onComplete"]


def test_a_python_definition_re_indented_is_modified() -> None:
    old = "def f():\n    return 1\n"
    new = "if ready:\n    def f():\n        return 1\n"
    assert [(c.name, c.change) for c in symbols_in_edit(old, new, "a.py")] == [("f", "modified")]
