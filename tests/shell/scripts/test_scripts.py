"""Effects of scripts run from the shell, inferred from their code."""

from __future__ import annotations

import pytest

from ..helpers import analyze, effects, only


def run_python(
    code: str, **kwargs: object
) -> list[tuple[str, str | None] | tuple[str, str | None, str | None]]:
    """Write ``code`` to fix.py with a heredoc, run it, and return the script's effects."""
    result = analyze(f"cat > fix.py <<'EOF'\n{code}\nEOF\npython fix.py", **kwargs)  # type: ignore[arg-type]
    return [e for e in effects(result, reads=True) if e[1] != "fix.py"]


class TestResolvedPaths:
    def test_open_modes(self) -> None:
        code = "\n".join(
            [
                "open('a.txt', 'w').write('x')",
                "open('b.txt', 'a')",
                "open('c.txt', 'x')",
                "open('d.txt', 'r+')",
                "open('e.txt')",
                "open('f.txt', mode='wb')",
            ]
        )
        assert run_python(code) == [
            ("write", "a.txt"),
            ("edit", "b.txt"),
            ("write", "c.txt"),
            ("edit", "d.txt"),
            ("read", "e.txt"),
            ("write", "f.txt"),
        ]

    def test_typical_fix_script_reads_then_writes(self) -> None:
        code = (
            "path = 'pkg/mod.py'\n"
            "with open(path, 'r') as f:\n"
            "    content = f.read()\n"
            "content = content.replace('old', 'new')\n"
            "with open(path, 'w') as f:\n"
            "    f.write(content)\n"
        )
        assert run_python(code) == [("read", "pkg/mod.py"), ("write", "pkg/mod.py")]

    def test_pathlib(self) -> None:
        code = (
            "from pathlib import Path\n"
            "root = Path('src')\n"
            "(root / 'new.py').write_text('x = 1\\n')\n"
            "Path('old.py').unlink()\n"
            "Path('a.py').rename('b.py')\n"
            "Path('flag').touch()\n"
            "text = Path('README.md').read_text()\n"
        )
        assert run_python(code) == [
            ("write", "src/new.py"),
            ("delete", "old.py"),
            ("move", "a.py", "b.py"),
            ("create", "flag"),
            ("read", "README.md"),
        ]

    def test_write_text_content_is_kept(self) -> None:
        result = analyze(
            "python -c \"from pathlib import Path; Path('v.txt').write_text('1.2.3')\""
        )
        op = only(result, "write")
        assert (op.path, op.content) == ("/w/v.txt", "1.2.3")

    def test_content_written_through_a_handle(self) -> None:
        result = analyze(
            "python - <<'EOF'\nwith open('out.txt', 'w') as f:\n    f.write('a')\n    f.write('b')\nEOF"
        )
        assert only(result, "write").content == "ab"

    def test_os_and_shutil(self) -> None:
        code = (
            "import os, shutil\n"
            "os.remove('a.py')\n"
            "os.rename('b.py', 'c.py')\n"
            "os.replace('d.py', 'e.py')\n"
            "shutil.move('f.py', 'g.py')\n"
            "shutil.copy('h.py', 'i.py')\n"
            "shutil.copyfile('j.py', 'k.py')\n"
        )
        assert run_python(code) == [
            ("delete", "a.py"),
            ("move", "b.py", "c.py"),
            ("move", "d.py", "e.py"),
            ("move", "f.py", "g.py"),
            ("copy", "h.py", "i.py"),
            ("copy", "j.py", "k.py"),
        ]

    def test_rmtree_deletes_the_known_files_under_it(self) -> None:
        code = "import shutil\nshutil.rmtree('build')"
        assert run_python(code, files={"/w/build/x.o": ""}) == [("delete", "build/x.o")]

    def test_joins_fstrings_format_and_concatenation(self) -> None:
        code = (
            "import os\n"
            "BASE = 'pkg'\n"
            "name = 'mod'\n"
            "open(os.path.join(BASE, f'{name}.py'), 'w')\n"
            "open(BASE + '/' + name + '.txt', 'w')\n"
            "open('{}/{}.cfg'.format(BASE, name), 'w')\n"
            "open('%s/%s.ini' % (BASE, name), 'w')\n"
        )
        assert run_python(code) == [
            ("write", "pkg/mod.py"),
            ("write", "pkg/mod.txt"),
            ("write", "pkg/mod.cfg"),
            ("write", "pkg/mod.ini"),
        ]

    def test_loop_over_a_literal_list(self) -> None:
        code = "import os\nfor f in ['a.py', 'b.py']:\n    os.remove(f)\n"
        assert run_python(code) == [("delete", "a.py"), ("delete", "b.py")]

    def test_user_function_called_with_literals(self) -> None:
        code = (
            "def patch(path, old, new):\n"
            "    with open(path) as f:\n"
            "        text = f.read()\n"
            "    with open(path, 'w') as f:\n"
            "        f.write(text.replace(old, new))\n"
            "\n"
            "if __name__ == '__main__':\n"
            "    patch('src/a.py', 'x', 'y')\n"
            "    patch(path='src/b.py', old='x', new='y')\n"
        )
        assert run_python(code) == [
            ("read", "src/a.py"),
            ("write", "src/a.py"),
            ("read", "src/b.py"),
            ("write", "src/b.py"),
        ]

    def test_uncalled_function_has_no_effect(self) -> None:
        assert run_python("import os\ndef cleanup():\n    os.remove('x.py')\n") == []

    def test_dunder_file_and_chdir(self) -> None:
        code = "import os\nhere = os.path.dirname(os.path.abspath(__file__))\nos.chdir(here)\nopen('out.txt', 'w')\n"
        assert run_python(code) == [("write", "out.txt")]
        result = analyze("python tools/gen.py", files={"/w/tools/gen.py": code})
        assert effects(result) == [("write", "tools/out.txt")]

    def test_subprocess_runs_shell_commands(self) -> None:
        code = (
            "import subprocess\n"
            "subprocess.run(['git', 'checkout', '--', 'src/a.py'])\n"
            "subprocess.run('rm -f b.py', shell=True)\n"
            "import os\nos.system('sed -i s/x/y/ c.py')\n"
        )
        assert run_python(code) == [("restore", "src/a.py"), ("delete", "b.py"), ("edit", "c.py")]

    def test_savefig_writes_a_file(self) -> None:
        code = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nplt.savefig('plot.png')\nfig.savefig('fig.png')\n"
        assert run_python(code) == [("write", "plot.png"), ("write", "fig.png")]

    def test_files_in_a_mkdtemp_directory_are_anonymous_but_named_temporary_files_are_kept(
        self,
    ) -> None:
        code = "import tempfile, os\nd = tempfile.mkdtemp()\nopen(os.path.join(d, 'x.txt'), 'w')\nopen('/tmp/y.txt', 'w')\n"
        assert run_python(code) == [("write", "/tmp/y.txt")]


class TestCacheGuards:
    """A script that fills a file only when it is missing: `if exists(out): return`."""

    LOADER = (
        "import os\n"
        "DATA = 'data'\n"
        "def prepare():\n"
        "    out = os.path.join(DATA, 'captions.txt')\n"
        "    if os.path.exists(os.path.join(DATA, 'images')) and os.path.exists(out):\n"
        "        return out\n"
        "    with open(out, 'w') as f:\n"
        "        f.write('image,caption\\n')\n"
        "    return out\n"
        "prepare()\n"
    )

    def test_a_file_known_to_exist_is_not_claimed_rewritten(self) -> None:
        known = {"/w/loader.py": self.LOADER, "/w/data/captions.txt": "image,caption\n"}
        ops = analyze("python loader.py", files=known).operations
        assert [(op.action, op.path) for op in ops] == [("unknown", "/w/data/captions.txt")]
        assert (ops[0].detail or "").endswith(
            "only when captions.txt or images is missing, and captions.txt exists"
        )

    def test_a_file_not_known_to_exist_is_written(self) -> None:
        ops = analyze("python loader.py", files={"/w/loader.py": self.LOADER}).operations
        assert [(op.action, op.path) for op in ops] == [("write", "/w/data/captions.txt")]

    @pytest.mark.parametrize(
        "guard",
        [
            "if Path('out.csv').exists():\n    sys.exit(0)\n",
            "for name in ['a']:\n    if Path('out.csv').is_file():\n        continue\n",
        ],
    )
    def test_pathlib_checks_and_other_exits(self, guard: str) -> None:
        indent = "    " if guard.startswith("for") else ""
        code = f"import sys\nfrom pathlib import Path\n{guard}{indent}Path('out.csv').write_text('x')\n"
        known = {"/w/gen.py": code, "/w/out.csv": "old"}
        ops = analyze("python gen.py", files=known).operations
        assert [(op.action, op.path) for op in ops] == [("unknown", "/w/out.csv")]

    def test_a_guard_with_an_else_or_an_or_changes_nothing(self) -> None:
        code = (
            "import os\n"
            "if os.path.exists('a.txt') or os.path.exists('b.txt'):\n    raise SystemExit\n"
            "open('a.txt', 'w').write('x')\n"
        )
        known = {"/w/gen.py": code, "/w/a.txt": "old"}
        ops = analyze("python gen.py", files=known).operations
        assert [(op.action, op.path) for op in ops] == [("write", "/w/a.txt")]


class TestUnresolvedPaths:
    def test_computed_path_is_unknown_with_a_reason(self) -> None:
        result = analyze("python - <<'EOF'\nimport sys\nopen(sys.argv[1], 'w').write('x')\nEOF")
        op = only(result, "unknown")
        assert op.path is None
        assert op.detail == "Python code writes a file whose path is computed at run time"

    def test_loop_over_a_directory_listing_is_unknown(self) -> None:
        code = "import os, glob\nfor f in glob.glob('*.orig'):\n    os.remove(f)\n"
        assert run_python(code) == [("unknown", None)]

    def test_reads_through_computed_paths_are_dropped(self) -> None:
        assert run_python("import sys\ndata = open(sys.argv[1]).read()\n") == []

    def test_str_replace_is_not_a_rename(self) -> None:
        assert run_python("s = 'a-b'\nt = s.replace('-', '_')\nu = x.replace('a', 'b')\n") == []

    def test_pandas_rename_is_not_a_file_move(self) -> None:
        assert (
            run_python(
                "import pandas as pd\ndf = pd.DataFrame()\ndf = df.rename(columns={'a': 'b'})\n"
            )
            == []
        )


class TestRunning:
    def test_script_text_from_the_context(self) -> None:
        result = analyze("python3 fix.py --apply", files={"/w/fix.py": "open('a.py', 'w')"})
        op = only(result, "write")
        assert (op.path, op.command) == ("/w/a.py", "python3 fix.py --apply")

    def test_a_script_writing_the_path_its_command_line_gives(self) -> None:
        # A generator the session wrote, run as `python3 gen.py OUT`: it writes sys.argv[1].
        code = (
            "import sys\nfrom pathlib import Path\n\n"
            "if __name__ == '__main__':\n"
            "    path = sys.argv[1]\n"
            "    with open(path, 'wb') as f:\n"
            "        f.write(b'\\0' * 16)\n"
            "    Path(sys.argv[-1] + '.sum').write_text('ok')\n"
        )
        result = analyze("cd out && python3 ../gen.py patch.bin", files={"/w/gen.py": code})
        assert effects(result) == [("write", "out/patch.bin"), ("write", "out/patch.bin.sum")]
        unknown = analyze("python3 gen.py $TARGET", files={"/w/gen.py": code})
        assert {op.action for op in unknown.operations} == {"unknown"}

    def test_script_with_unknown_text_is_unknown(self) -> None:
        op = only(analyze("python reproduce.py"), "unknown")
        assert op.detail == "runs reproduce.py, whose text is not known"

    def test_modules_are_programs(self) -> None:
        assert analyze("python -m pytest -q && python -m pip install -e .").operations == []

    def test_python_c(self) -> None:
        assert effects(analyze("python3 -c \"import os; os.remove('a.py')\"")) == [
            ("delete", "a.py")
        ]

    def test_python_reading_its_program_from_a_pipe(self) -> None:
        assert effects(analyze("echo \"open('a.txt', 'w')\" | python")) == [("write", "a.txt")]

    def test_failed_script_changed_nothing(self) -> None:
        assert (
            analyze(
                "python fix.py", files={"/w/fix.py": "open('a.py', 'w')"}, succeeded=False
            ).operations
            == []
        )

    def test_bash_script_recursion_inside_python(self) -> None:
        code = "import subprocess\nsubprocess.run(['bash', '-c', 'cd sub && touch new.txt'])\n"
        assert run_python(code) == [("create", "sub/new.txt")]

    def test_script_written_to_tmp_and_run(self) -> None:
        result = analyze("cat > /tmp/fix.py <<'EOF'\nopen('a.py', 'w')\nEOF\npython /tmp/fix.py")
        assert effects(result) == [("write", "/tmp/fix.py"), ("write", "a.py")]

    @pytest.mark.parametrize(
        "program", ["./venv/Scripts/python.exe", "venv/Scripts/python", "C:/Python312/python.exe"]
    )
    def test_a_windows_interpreter_by_path_runs_its_program(self, program: str) -> None:
        # A Windows virtual environment's `Scripts/python.exe` fed a heredoc: the
        # interpreter, not a script whose text is unknown.
        code = "from pathlib import Path\nout = Path('report') / 'part.md'\nout.write_text('x')\n"
        result = analyze(f"{program} <<'PYEOF'\n{code}PYEOF")
        assert effects(result) == [("write", "report/part.md")]

    def test_a_program_of_a_windows_virtual_environment_is_no_script(self) -> None:
        assert analyze("venv/Scripts/pytest.exe -q").operations == []

    def test_interpreter_from_the_shebang(self) -> None:
        result = analyze(
            "./tool", files={"/w/tool": "#!/usr/bin/env python3\nimport os\nos.remove('x')\n"}
        )
        assert effects(result) == [("delete", "x")]

    @pytest.mark.parametrize(
        "code",
        [
            "const fs = require('fs');\nfs.writeFileSync('out.json', '{}');",
            "import { writeFileSync } from 'node:fs';\nwriteFileSync('out.json', '{}');",
            "const path = require('path');\nconst fs = require('fs');\nfs.writeFileSync(path.join(__dirname, 'out.json'), '{}');",
        ],
    )
    def test_node_scripts(self, code: str) -> None:
        result = analyze("node gen.js", files={"/w/gen.js": code})
        op = only(result, "write")
        assert (op.path, op.content) == ("/w/out.json", "{}")

    def test_node_computed_path_is_unknown(self) -> None:
        result = analyze("node -e \"require('fs').unlinkSync(process.argv[1])\"")
        assert effects(result) == [("unknown", None)]


class TestCoverage:
    def test_writes_in_methods_the_walk_does_not_follow_are_unknown(self) -> None:
        code = (
            "class Fixer:\n"
            "    @staticmethod\n"
            "    def run():\n"
            "        open('x.py', 'w').write('')\n"
            "Fixer.run()\n"
        )
        result = analyze(f"python - <<'EOF'\n{code}EOF")
        op = only(result, "unknown")
        assert "line 4" in (op.detail or "")

    def test_writes_in_callbacks_are_unknown(self) -> None:
        code = "import os\ndef drop(p):\n    os.remove(p)\nlist(map(drop, ['a.py']))\n"
        assert effects(analyze(f"python - <<'EOF'\n{code}EOF")) == [("unknown", None)]

    def test_dead_functions_are_not_reported(self) -> None:
        code = "import os\ndef never_called():\n    os.remove('a.py')\nprint('done')\n"
        assert analyze(f"python - <<'EOF'\n{code}EOF").operations == []


def test_invalid_escapes_in_script_strings_keep_their_meaning() -> None:
    result = analyze(
        "python - <<'EOF'\nimport re\npattern = re.compile('\\d+')\nopen('out\\d.txt', 'w')\nEOF"
    )
    assert only(result, "write").path == "/w/out\\d.txt"


def test_save_methods_with_a_file_name_write_it() -> None:
    code = (
        "import seaborn.objects as so\nimport torch\n"
        "p = so.Plot()\np.save('test_plot.png')\n"
        "torch.save(model, 'weights.pt')\n"
        "record.save()\nform.save(commit=False)\n"
    )
    assert effects(analyze(f"python - <<'EOF'\n{code}EOF")) == [
        ("write", "test_plot.png"),
        ("write", "weights.pt"),
    ]
