"""Shell completion of kbg's values (games, editions, variants, player counts, rule topics and ids, explain's
topics, languages) through the protocol each shell's script speaks: typer's ``_KBG_COMPLETE=complete_SHELL``
with ``COMP_WORDS``/``COMP_CWORD`` (bash) or ``_TYPER_COMPLETE_ARGS`` (zsh, fish), run as the shell runs it,
in a process of its own; and bash itself, with the script sourced.

The values expected are read from the library (the catalogue, the rulesets, explain's index), not written
here, but for a few that a player would type.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import kbgrules
from kbg_cli import RULE_TOPICS

ROOT = Path(__file__).resolve().parent.parent
HOUSE_RULES = ROOT / "docs" / "examples" / "house-rules"
SHELLS = ("bash", "zsh", "fish")


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KBG_RULES", "KBG_DEBUG")}
    return {**env, **extra}


def ask(shell: str, line: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run kbg as ``shell``'s completion script does for the command line ``line`` (the cursor at its end)."""
    if shell == "bash":
        words = line.split()
        cword = len(words) if line.endswith(" ") else len(words) - 1
        protocol = {"COMP_WORDS": line, "COMP_CWORD": str(cword)}
    else:
        protocol = {"_TYPER_COMPLETE_ARGS": line, "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    return subprocess.run([sys.executable, "-m", "kbg_cli"], capture_output=True, text=True, timeout=60,
                          env=_env({"_KBG_COMPLETE": f"complete_{shell}", **protocol, **(env or {})}))


def offered(shell: str, line: str, env: dict[str, str] | None = None) -> dict[str, str]:
    """The values offered, each with its help (bash shows none), read back as the shell reads them."""
    r = ask(shell, line, env)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln]
    if shell == "bash":
        return dict.fromkeys(lines, "")
    if shell == "fish":
        return dict(ln.partition("\t")[::2] for ln in lines)
    if r.stdout.strip() == "_files":
        return {}
    body = r.stdout.strip().removeprefix("_arguments '*: :((").removesuffix("))'")
    return {v.replace('""', '"'): h.replace('""', '"').replace("\\\\:", ":")
            for v, h in re.findall(r'^"((?:[^"]|"")*)"(?::"((?:[^"]|"")*)")?$', body, re.M)}


def values(shell: str, line: str, env: dict[str, str] | None = None) -> list[str]:
    return list(offered(shell, line, env))


@cache
def game(name: str) -> kbgrules.GameInfo:
    return next(g for g in kbgrules.games() if name == g.id or name in g.aliases)


def shell_words(names: list[str]) -> set[str]:
    """The names that completion offers: those that are one shell word (no space)."""
    return {n for n in names if " " not in n}


# --------------------------------------------------------------------------- the scripts


@pytest.mark.parametrize(("shell", "registers", "instruction"), [
    ("bash", "complete -o default -F _kbg_completion kbg", "_KBG_COMPLETE=complete_bash"),
    ("zsh", "compdef _kbg_completion kbg", "_KBG_COMPLETE=complete_zsh"),
    ("fish", "complete --command kbg --no-files", "_KBG_COMPLETE=complete_fish"),
])
def test_each_shell_script_registers_kbg_and_asks_kbg(shell: str, registers: str, instruction: str) -> None:
    r = subprocess.run([sys.executable, "-m", "kbg_cli", "--show-completion", shell], capture_output=True,
                       text=True, env=_env({}))
    assert r.returncode == 0 and registers in r.stdout and instruction in r.stdout, r.stdout


@pytest.mark.parametrize(("shell", "script", "rc"), [
    ("bash", ".bash_completions/kbg.sh", ".bashrc"),
    ("zsh", ".zfunc/_kbg", ".zshrc"),
    ("fish", ".config/fish/completions/kbg.fish", None),
])
def test_each_shell_script_installs(tmp_path: Path, shell: str, script: str, rc: str | None) -> None:
    r = subprocess.run([sys.executable, "-m", "kbg_cli", "--install-completion", shell], capture_output=True,
                       text=True, env=_env({"HOME": str(tmp_path)}))
    assert r.returncode == 0 and f"{shell} completion installed" in r.stdout, r.stdout + r.stderr
    shown = subprocess.run([sys.executable, "-m", "kbg_cli", "--show-completion", shell], capture_output=True,
                           text=True, env=_env({})).stdout
    assert (tmp_path / script).read_text(encoding="utf-8").strip() == shown.strip()
    if rc is not None:  # the shell's start-up file reads it
        assert ".bash_completions/kbg.sh" in (tmp_path / rc).read_text() if shell == "bash" else \
            "compinit" in (tmp_path / rc).read_text()


# --------------------------------------------------------------------------- the values


@pytest.mark.parametrize("shell", SHELLS)
def test_every_shell_gets_the_values_and_their_help(shell: str) -> None:
    """The same values in every shell's protocol; zsh and fish show each one's help."""
    kot = game("kot")
    rs = kbgrules.load("kot")
    assert {kot.id, "kot"} <= set(values(shell, "kbg setup "))
    editions = offered(shell, "kbg setup kot --edition ")
    assert list(editions) == [e.id for e in kot.editions]
    variants = offered(shell, "kbg setup kot -p 3 --variant ")
    assert list(variants) == [v.id for v in kot.variants if not v.players or 3 in v.players]
    rules = offered(shell, "kbg rules kot kot.tokyo.")
    assert list(rules) == [r for r in rs.rules if r.startswith("kot.tokyo.")]
    if shell != "bash":  # bash shows no help
        assert editions[kot.editions[1].id] == kot.editions[1].title
        assert variants[kot.variants[0].id] == kot.variants[0].title
        assert all(rules[r] == rs.rules[r].title for r in rules)


# the values in detail (bash's protocol: every shell's gives the same, as above)


def test_games_ids_and_aliases() -> None:
    shell = "bash"
    got = values(shell, "kbg setup ")
    for g in kbgrules.games():
        assert {g.id, *shell_words(list(g.aliases))} <= set(got), g.id
    assert values(shell, "kbg simulate ") == got
    assert set(values(shell, "kbg setup kot")) == {w for w in got if w.startswith("kot")}
    assert not any(" " in w for w in got)


def test_editions_of_the_game_on_the_line_only() -> None:
    shell = "bash"
    kot, kd = game("kot"), game("kd")
    got = offered(shell, "kbg setup kot --edition ")
    assert list(got) == [e.id for e in kot.editions]
    assert values(shell, "kbg setup kd -p 3 --edition ") == [e.id for e in kd.editions]
    assert values(shell, "kbg rules kd --edition ") == [e.id for e in kd.editions]
    # an alias where no id starts with the word typed
    assert values(shell, "kbg setup kot --edition 2n") == ["2nd"]
    # no game on the line yet: every game's
    assert {e.id for g in kbgrules.games() for e in g.editions} <= set(values(shell, "kbg setup --edition "))


def test_variants_that_can_still_be_added() -> None:
    shell = "bash"
    kd, kot = game("kd"), game("kot")
    assert values(shell, "kbg setup kd --variant ") == [v.id for v in kd.variants]
    three = values(shell, "kbg setup kd -p 3 --variant ")
    assert three == [v.id for v in kd.variants if not v.players or 3 in v.players] and len(three) < len(kd.variants)
    first = kot.variants[0]
    after = values(shell, f"kbg setup kot --variant {first.id} --variant ")
    assert first.id not in after and set(after) < {v.id for v in kot.variants}
    for edition in kot.editions:
        assert values(shell, f"kbg simulate kot --edition {edition.id} --variant ") == \
            [v.id for v in kot.variants if not v.editions or edition.id in v.editions]


def test_player_counts() -> None:
    shell = "bash"
    for g in kbgrules.games():
        assert values(shell, f"kbg setup {g.id} -p ") == [str(n) for n in range(g.min_players, g.max_players + 1)]
    duel = next(v for v in game("kd").variants if v.players == (2,))
    assert values(shell, f"kbg simulate kd --variant {duel.id} --players ") == ["2"]


def test_rule_topics_and_ids() -> None:
    shell = "bash"
    from kbgrules.core.registry import engine_of

    rs = kbgrules.load("kot")
    got = offered(shell, "kbg rules kot ")
    topics = [t.name for t in engine_of("kot").reference_topics]
    assert list(got)[: len(topics) + len(RULE_TOPICS)] == [*topics, *RULE_TOPICS]
    assert set(rs.rules) <= set(got)
    # the rules of the edition given
    dark = kbgrules.load("kot", edition="dark")
    only_dark = set(dark.rules) - set(rs.rules)
    assert only_dark and only_dark <= set(values(shell, "kbg rules kot --edition dark "))
    assert not only_dark & set(values(shell, "kbg rules kot "))
    word = next(iter(rs.rules)).rsplit(".", 1)[0] + "."
    assert set(values(shell, f"kbg rules kot {word}")) == {r for r in rs.rules if r.startswith(word)}


def test_explain_topics_languages_and_games() -> None:
    shell = "bash"
    from kbgrules.explain.store import _shipped_index
    from kbgrules.explain.text import LANG_NAMES

    kd = [(m[0], m[3]) for m in _shipped_index()["meta"] if m[1] == game("kd").id]
    got = offered(shell, "kbg explain --game kd ")
    assert list(got) == [i for i, _ in kd]
    assert set(values(shell, "kbg explain ")) >= {i for i, _ in kd}
    assert values(shell, "kbg explain yield ") == []  # a question goes on in words
    assert values(shell, "kbg explain --lang ") == list(LANG_NAMES)
    assert values(shell, "kbg explain -g ") == values(shell, "kbg setup ")
    assert values(shell, "kbg explain -g kd -e ") == [e.id for e in game("kd").editions]


def test_score_offers_the_games_that_score() -> None:
    shell = "bash"
    from kbgrules.core.registry import engine_of, scorer

    got = values(shell, "kbg score --game ")
    for g in kbgrules.games():
        assert (g.id in got) == (scorer(engine_of(g.id)) is not None)


# --------------------------------------------------------------------------- the user's rules, bad input


def test_the_users_rule_folders_add_their_values() -> None:
    shell = "bash"
    assert "big-kingdom" not in values(shell, "kbg setup kd --variant ")
    assert "big-kingdom" in values(shell, f"kbg --rules {HOUSE_RULES} setup kd --variant ")
    assert "big-kingdom" in values(shell, "kbg setup kd --variant ", {"KBG_RULES": str(HOUSE_RULES)})
    assert "kd.house.big-kingdom" in values(shell, f"kbg --rules {HOUSE_RULES} rules kd --variant big ")


def test_bad_input_offers_what_it_can_and_says_nothing(tmp_path: Path) -> None:
    shell = "bash"
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bad.yaml").write_text("kind: variant\ngame: kingdomino\nid: [\n", encoding="utf-8")
    shipped = values(shell, "kbg setup kd --variant ")
    for line in (f"kbg --rules {broken} setup kd --variant ", f"kbg --rules {tmp_path}/none setup kd --variant ",
                 "kbg setup kd -p x --variant ", "kbg setup kd --variant nope --variant "):
        assert values(shell, line) == shipped, line  # `offered` checks: exit code 0, nothing on stderr
    for line in ("kbg setup nope --edition ", "kbg rules nope ", "kbg setup nope -p ", "kbg explain -g nope ",
                 "kbg rules kot --edition nope zzz"):
        assert values(shell, line) == [], line


def test_an_eager_option_on_the_line_prints_nothing_but_values() -> None:
    """``kbg --version <TAB>``: the version is not printed among the commands offered."""
    assert values("bash", "kbg --version ") == values("bash", "kbg ")
    assert "setup" in values("bash", "kbg --version ")


def test_a_file_argument_is_left_to_the_shell() -> None:
    """No value for a log, a folder or an address: bash falls back to file names (``-o default``), zsh is
    told ``_files``, fish's condition fails, so that its own file completion runs."""
    assert ask("bash", "kbg check ").stdout.strip() == ""
    assert ask("zsh", "kbg show ").stdout.strip() == "_files"
    is_args = {"_TYPER_COMPLETE_FISH_ACTION": "is-args"}
    assert ask("fish", "kbg site ", is_args).returncode == 1 and ask("fish", "kbg setup ", is_args).returncode == 0


def test_completion_reads_no_more_than_it_needs() -> None:
    """A variant's completion reads the catalogue and nothing more: no ruleset, no explain index, no
    game's code, no rich, no schema; a normal run does not even import the completion module."""
    script = ("import os, sys; sys.argv = ['kbg']\n"
              "from kbg_cli.app import main\n"
              "try:\n    main([])\nexcept SystemExit:\n    pass\n"
              "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=_env({
        "_KBG_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "kbg setup kot --variant "}))
    loaded = set(r.stderr.split())
    assert "power-up" in r.stdout
    assert not {m for m in loaded if m.startswith(("rich", "jsonschema", "yaml"))}
    # the catalogue's modules only: no game's package, no explain, no model of a ruleset
    assert {m.split(".")[1] for m in loaded if m.startswith("kbgrules.")} == {"core", "errors"}
    assert not {"kbgrules.core.model", "kbgrules.core.build", "kbgrules.core.registry"} & loaded
    normal = subprocess.run([sys.executable, "-c", "import sys\nfrom kbg_cli.app import main\nmain(['list'])\n"
                             "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"],
                            capture_output=True, text=True, env=_env({}))
    assert normal.returncode == 0 and "kbg_cli.app" in normal.stderr.split()
    assert "kbg_cli.complete" not in normal.stderr.split()


# --------------------------------------------------------------------------- a real shell


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_itself_with_the_script_sourced(tmp_path: Path) -> None:
    """bash sources the script, then calls its function as it does on TAB: COMPREPLY holds the values."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "kbg").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kbg_cli "$@"\n', encoding="utf-8")
    (bindir / "kbg").chmod(0o755)
    script = (tmp_path / "kbg.bash")
    script.write_text(subprocess.run([sys.executable, "-m", "kbg_cli", "--show-completion", "bash"],
                                     capture_output=True, text=True, env=_env({})).stdout, encoding="utf-8")
    program = f"""
        source {script}
        complete -p kbg
        for line in 'kbg setup kot --edition ' 'kbg rules kot kot.tokyo.y' 'kbg setup kd -p ' 'kbg exp'; do
            read -ra COMP_WORDS <<< "$line"
            [[ $line == *' ' ]] && COMP_WORDS+=('')
            COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
            COMPREPLY=()
            _kbg_completion kbg "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
            echo "${{COMPREPLY[*]}}"
        done
    """
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                       env=_env({"PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}), timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    registered, editions, yield_, players, command = r.stdout.splitlines()
    assert registered == "complete -o default -F _kbg_completion kbg"
    assert editions.split() == [e.id for e in game("kot").editions]
    assert yield_.split() == [r for r in kbgrules.load("kot").rules if r.startswith("kot.tokyo.y")]
    assert players.split() == [str(n) for n in range(game("kd").min_players, game("kd").max_players + 1)]
    assert command == "explain"


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish on this machine")
def test_fish_itself_with_the_script_sourced(tmp_path: Path) -> None:
    """fish sources the script and completes a command line (``complete -C``) as on TAB."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "kbg").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kbg_cli "$@"\n', encoding="utf-8")
    (bindir / "kbg").chmod(0o755)
    script = tmp_path / "kbg.fish"
    script.write_text(subprocess.run([sys.executable, "-m", "kbg_cli", "--show-completion", "fish"],
                                     capture_output=True, text=True, env=_env({})).stdout, encoding="utf-8")
    r = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C 'kbg setup kot --edition '"],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path,
                       env=_env({"PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}))
    assert r.returncode == 0, r.stderr
    kot = game("kot")
    assert dict(ln.split("\t") for ln in r.stdout.splitlines()) == \
        {e.id: e.title + (" (default)" if e.default else "") for e in kot.editions}
