"""The shell parser: quoting, heredocs, list structure, redirections."""

from __future__ import annotations

from artifact_index.shell.parser import (
    Command,
    Conditional,
    ForLoop,
    Group,
    Lit,
    Pipeline,
    Sequence,
    Sub,
    Subshell,
    Var,
    Word,
    parse_command,
)


def commands(text: str) -> list[Command]:
    """Every simple command of ``text`` in order, however deeply nested."""
    out: list[Command] = []

    def walk(node: object) -> None:
        if isinstance(node, Command):
            out.append(node)
            for word in node.argv:
                for part in word.parts:
                    if isinstance(part, Sub):
                        walk(part.script)
        elif isinstance(node, Sequence):
            for item in node.items:
                walk(item)
        elif isinstance(node, Pipeline):
            for item in node.commands:
                walk(item)
        elif isinstance(node, Subshell | Group | Conditional | ForLoop):
            walk(node.body)

    walk(parse_command(text).body)
    return out


def argv(command: Command) -> list[str | None]:
    return [w.literal for w in command.argv]


def heredoc(command: Command) -> Word:
    bodies = [r.body for r in command.redirects if r.op == "<<"]
    assert len(bodies) == 1 and bodies[0] is not None
    return bodies[0]


class TestQuoting:
    def test_single_and_double_quotes_are_removed(self) -> None:
        (cmd,) = commands("""echo 'a b' "c d" e""")
        assert argv(cmd) == ["echo", "a b", "c d", "e"]

    def test_escaped_space_joins_a_word(self) -> None:
        (cmd,) = commands(r"rm my\ file.txt")
        assert argv(cmd) == ["rm", "my file.txt"]

    def test_backslash_escapes_in_double_quotes(self) -> None:
        (cmd,) = commands(r'''echo "say \"hi\" \$HOME \\ \n"''')
        assert argv(cmd)[1] == 'say "hi" $HOME \\ \\n'

    def test_ansi_c_string(self) -> None:
        (cmd,) = commands(r"printf $'a\tb\n\x41'")
        assert argv(cmd)[1] == "a\tb\nA"

    def test_concatenated_pieces_form_one_word(self) -> None:
        (cmd,) = commands("""cat 'src/'"my file".py""")
        assert argv(cmd) == ["cat", "src/my file.py"]

    def test_variables_stay_typed(self) -> None:
        (cmd,) = commands('rm "$DIR/x.py"')
        assert cmd.argv[1].parts == (Var("DIR"), Lit("/x.py", quoted=True))

    def test_command_substitution_is_parsed(self) -> None:
        cd, inner = commands("cd $(git rev-parse --show-toplevel)")
        assert isinstance(cd.argv[1].parts[0], Sub)
        assert argv(inner) == ["git", "rev-parse", "--show-toplevel"]

    def test_a_variable_after_a_variable_directory_stays_in_its_word(self) -> None:
        # The grammar splits `$T/$c.json` into `$T/$` and a word `c.json`.
        (cmd,) = commands("cp $T/$c.json $T/$c/x.txt")
        assert [w.parts for w in cmd.argv[1:]] == [
            (Var("T"), Lit("/"), Var("c"), Lit(".json")),
            (Var("T"), Lit("/"), Var("c"), Lit("/x.txt")),
        ]
        assert cmd.text == "cp $T/$c.json $T/$c/x.txt"

    def test_a_variable_inside_a_file_name_after_a_variable_directory_stays_in_its_word(
        self,
    ) -> None:
        # `$S/c$side.txt` is split too: the word `$S/c$` and a word `side.txt`.
        (cmd,) = commands("sort > $S/calls_$side.txt")
        (target,) = [r.target for r in cmd.redirects if r.op == ">"]
        assert target is not None
        assert target.parts == (Var("S"), Lit("/calls_"), Var("side"), Lit(".txt"))

    def test_an_assignment_of_such_a_word_runs_no_command(self) -> None:
        (cmd,) = commands("X=$T/$c.json")
        assert cmd.argv == () and [n for n, _ in cmd.assignments] == ["X"]

    def test_a_redirection_to_such_a_word_after_a_heredoc(self) -> None:
        (cmd,) = commands("cat <<'EOF' > $T/$c.json\n{}\nEOF\n")
        (target,) = [r.target for r in cmd.redirects if r.op == ">"]
        assert target is not None and target.parts == (Var("T"), Lit("/"), Var("c"), Lit(".json"))
        assert heredoc(cmd).literal == "{}\n"

    def test_a_quoted_dollar_is_left_alone(self) -> None:
        (cmd,) = commands("echo '$T/$c.json' \"$T/$c.json\"")
        assert cmd.argv[1].literal == "$T/$c.json"
        assert cmd.argv[2].parts == (
            Var("T"),
            Lit("/", quoted=True),
            Var("c"),
            Lit(".json", quoted=True),
        )


class TestHeredocs:
    def test_quoted_delimiter_keeps_text_literal(self) -> None:
        (cmd,) = commands("cat <<'EOF' > f.py\nprint('$HOME')\n  indented\nEOF\n")
        assert heredoc(cmd).literal == "print('$HOME')\n  indented\n"

    def test_unquoted_delimiter_expands_variables(self) -> None:
        (cmd,) = commands("cat <<EOF > f\nhome=$HOME cost=\\$5\nEOF")
        assert heredoc(cmd).parts == (
            Lit("home=", quoted=True),
            Var("HOME"),
            Lit(" cost=$5\n", quoted=True),
        )

    def test_dash_strips_leading_tabs(self) -> None:
        (cmd,) = commands("cat <<-EOF > f\n\tone\n\t\ttwo\n\tEOF\n")
        assert heredoc(cmd).literal == "one\ntwo\n"

    def test_rest_of_the_line_after_a_heredoc_is_parsed_normally(self) -> None:
        cmds = commands("cat > fix.py <<'EOF' && python fix.py | tail -3\nprint(1)\nEOF\necho done")
        assert [argv(c) for c in cmds] == [
            ["cat"],
            ["python", "fix.py"],
            ["tail", "-3"],
            ["echo", "done"],
        ]
        assert heredoc(cmds[0]).literal == "print(1)\n"
        assert [r.op for r in cmds[0].redirects] == [">", "<<"]

    def test_several_heredocs_in_one_command_text(self) -> None:
        cmds = commands("cat <<A > a.txt\nfirst\nA\ncat <<'B' > b.txt\nsecond\nB\n")
        assert [heredoc(c).literal for c in cmds] == ["first\n", "second\n"]

    def test_a_line_that_only_starts_with_the_delimiter_does_not_end_the_body(self) -> None:
        text = 'cat <<EOF > a.py\ntry:\n    input()\nexcept EOFError:\n    print("it\'s")\nEOF\ncat <<EOF > b.py\nb\nEOF\n'
        first, second = commands(text)
        assert heredoc(first).literal == 'try:\n    input()\nexcept EOFError:\n    print("it\'s")\n'
        assert heredoc(second).literal == "b\n"

    def test_two_heredocs_opened_on_one_line(self) -> None:
        first, second, third = commands(
            "cat <<A > a.txt; cat <<B > b.txt\nfor a\nA\nfor b\nB\nrm z"
        )
        assert (heredoc(first).literal, heredoc(second).literal) == ("for a\n", "for b\n")
        assert argv(third) == ["rm", "z"]

    def test_unterminated_heredoc_runs_to_the_end(self) -> None:
        (cmd,) = commands("cat <<EOF > f\nlast line")
        assert heredoc(cmd).literal == "last line"

    def test_heredoc_inside_command_substitution(self) -> None:
        cmds = commands("git commit -m \"$(cat <<'EOF'\nSubject\n\nBody\nEOF\n)\"")
        assert argv(cmds[0])[:2] == ["git", "commit"]
        assert heredoc(cmds[1]).literal == "Subject\n\nBody\n"

    def test_command_text_quotes_the_original_line(self) -> None:
        (cmd,) = commands("cat <<'EOF' > f.py\nx = 1\nEOF")
        assert cmd.text == "cat <<'EOF' > f.py"


class TestStructure:
    def test_list_operators(self) -> None:
        body = parse_command("a && b || c; d").body
        assert body.operators == ("&&", "||", ";")
        assert len(body.items) == 4

    def test_redirection_binds_to_the_last_command_of_a_list(self) -> None:
        a, b = commands("a && b > out.txt")
        assert a.redirects == ()
        assert [r.target.literal for r in b.redirects if r.target] == ["out.txt"]

    def test_a_negated_command_keeps_its_redirection_and_its_negation(self) -> None:
        # `if ! git rebase main > /tmp/out 2>&1; then cat /tmp/out; fi`: the rebase writes the file.
        (conditional,) = parse_command(
            "if ! git rebase main > /tmp/out 2>&1; then cat /tmp/out; fi"
        ).body.items
        assert isinstance(conditional, Conditional)
        negated = conditional.body.items[0]
        assert isinstance(negated, Pipeline) and negated.negated
        (rebase,) = negated.commands
        assert isinstance(rebase, Command)
        assert [r.target.literal for r in rebase.redirects if r.target and r.op == ">"] == [
            "/tmp/out"
        ]

    def test_a_comment_after_a_pipeline_does_not_swallow_the_next_line(self) -> None:
        # The grammar reads the comment and the next line into the pipeline's last command; the
        # newline that ends the comment must stay one, or the `if` line becomes part of it.
        (conditional,) = [
            item
            for item in parse_command(
                'git fetch 2>&1 | grep -E "main" | tail -1\n# rebase（衝突）\n'
                "if ! git rebase main > /tmp/out 2>&1; then\n  cat /tmp/out\nfi"
            ).body.items
            if isinstance(item, Conditional)
        ]
        assert isinstance(conditional.body.items[0], Pipeline)

    def test_pipeline(self) -> None:
        body = parse_command("cat f | grep x | head").body
        (pipeline,) = body.items
        assert isinstance(pipeline, Pipeline)
        assert len(pipeline.commands) == 3

    def test_subshell_and_group(self) -> None:
        body = parse_command("(cd x && make) ; { echo a; echo b; } > log").body
        assert isinstance(body.items[0], Subshell)
        group = body.items[1]
        assert isinstance(group, Group)
        assert [r.op for r in group.redirects] == [">"]

    def test_for_loop_values(self) -> None:
        (loop,) = parse_command("for f in a.py 'b c.py'; do rm $f; done").body.items
        assert isinstance(loop, ForLoop)
        assert loop.variable == "f"
        assert [w.literal for w in loop.values or ()] == ["a.py", "b c.py"]

    def test_if_is_a_conditional(self) -> None:
        (cond,) = parse_command("if [ -f x ]; then rm x; else touch y; fi").body.items
        assert isinstance(cond, Conditional)
        assert [argv(c)[0] for c in commands("if [ -f x ]; then rm x; else touch y; fi")] == [
            "test",
            "rm",
            "touch",
        ]

    def test_assignments(self) -> None:
        first, second = commands("F=a.py; DEBUG=1 python $F")
        assert first.argv == () and [name for name, _ in first.assignments] == ["F"]
        assert [name for name, _ in second.assignments] == ["DEBUG"]
        assert argv(second) == ["python", None]

    def test_unparsable_text_does_not_raise(self) -> None:
        script = parse_command("edit 1:1\nfrom x import (\nend_of_edit\n")
        assert script.has_errors or script.body.items

    def test_parses_are_cached(self) -> None:
        assert parse_command("ls -la") is parse_command("ls -la")


class TestNonAscii:
    def test_non_ascii_text_is_kept(self) -> None:
        (cmd,) = commands("cat <<'EOF' > notes.md\nnaïve café ✓\nEOF")
        assert heredoc(cmd).literal == "naïve café ✓\n"
        (echo,) = commands("echo 'héllo wörld' > 文件.txt")
        assert argv(echo) == ["echo", "héllo wörld"]
        assert [r.target.literal for r in echo.redirects if r.target] == ["文件.txt"]

    def test_input_that_crashes_the_bundled_grammar_is_masked(self) -> None:
        # The bundled bash grammar segfaults on "$" followed by some non-ASCII
        # characters in a heredoc; the parser only ever sees ASCII.
        for text in (
            "<<x\n\u00f1$\U000ff466",
            "cat <<x\n$\U000ff466\nx",
            "''<<x\n\u00f1$\udbbd\udc66",
        ):
            parse_command(text)
