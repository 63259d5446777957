"""The ``kbg`` command names no game: what it says of a game (its own ``kbg rules`` topics, its setup
table, one of its pieces, a scored position, its help examples) comes from the game's engine and data.

For every registered game: its engine's pages, ``kbg rules`` showing them as they are, and its help
examples; ``kbg score`` choosing the game that scores; the help filled from the catalogue only when
shown; and a scan of cli/kbg_cli for any game's id, alias, name or topic.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, get_args

import pytest
import typer
from typer.testing import CliRunner

import kbgrules
from kbg_cli import RULE_TOPICS
from kbg_cli import app as app_module
from kbg_cli.app import app
from kbgrules.core.reference import Page
from kbgrules.core.registry import engine_for, engine_of, scorer
from kbgrules.core.views import Block, Grid, Items, Table, Text
from kbgrules.errors import KbgError

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "cli" / "kbg_cli"
OWN_WORDS = ("explain_cmd.py", "explain_strings.py")  # kbg explain's own module and strings: checked elsewhere
GRID = ROOT / "examples" / "kingdomino" / "kingdoms" / "complete-centred.grid"
GAMES = [g.id for g in kbgrules.games()]
runner = CliRunner()


def kbg(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@cache
def _game_words() -> dict[str, str]:
    """Every word that names a registered game or one of its own topics, with what it names."""
    words: dict[str, str] = {}
    for g in kbgrules.games():
        for w in (g.id, g.name, g.short, *g.aliases):
            words[w.casefold()] = f"{g.id} (id, name or alias)"
        for t in engine_of(g.id).reference_topics:
            for w in (t.name, *t.aliases):
                words[w.casefold()] = f"{g.id} (a topic of its own)"
    return words


def _naming(text: str) -> list[str]:
    """The game words in ``text``, each as a whole word (``kd`` in ``kd.turn``, not in ``kdx``)."""
    found = []
    for word in sorted(_game_words(), key=len, reverse=True):
        pattern = r"(?<![\w-])" + re.escape(word).replace(r"\ ", r"[\s-]+") + r"(?![\w-])"
        if re.search(pattern, text, re.IGNORECASE):
            found.append(word)
    return found


def test_the_scan_finds_a_game() -> None:
    """The scan sees ids, aliases, names and topics, in code, in strings and in help texts."""
    assert _naming('help="kbg setup kd -p 3"') == ["kd"]
    assert set(_naming("turn (King of Tokyo) or round (Kingdomino)")) == {"king of tokyo", "kingdomino"}
    assert _naming("the topics: cards, dominoes") == ["dominoes", "cards"]
    assert _naming("kd.place.connect") == ["kd"]
    assert _naming("kdx, skot, scorecards") == []


def test_the_cli_names_no_game() -> None:
    """No game's id, alias, name or own topic in cli/kbg_cli (code, docstrings, comments), but in kbg
    explain's strings: every game-specific word comes from the game's engine or data."""
    found = {}
    for path in sorted(CLI.rglob("*.py")):
        if path.name in OWN_WORDS:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = _naming(line)
            if hits:
                found[f"{path.relative_to(ROOT)}:{n}"] = (hits, line.strip())
    assert not found, "\n".join(f"{k}: {v[0]}: {v[1]}" for k, v in found.items())


# --------------------------------------------------------------------------- kbg rules GAME TOPIC


def _rulesets(game: str) -> list[kbgrules.Ruleset]:
    """The game's rulesets: every edition, and each variant alone (those that load without a player count)."""
    info = next(g for g in kbgrules.games() if g.id == game)
    out = [kbgrules.load(game, edition=e.id) for e in info.editions]
    for v in info.variants:
        try:
            out.append(kbgrules.load(game, variants=[v.id]))
        except KbgError:
            continue
    return out


def _check_page(page: Page) -> None:
    assert page.title and isinstance(page.json, dict) and page.json
    json.dumps(page.json)  # JSON as it is printed
    for block in page.blocks:
        assert isinstance(block, get_args(Block)), block
        if isinstance(block, Table):
            assert all(len(row) == len(block.columns) for row in block.rows), page.title


@pytest.mark.parametrize("game", GAMES)
def test_every_topic_of_the_engine_draws_a_page(game: str) -> None:
    """Each of a game's own topics (and its setup table) is a page in some edition or variant; where a
    ruleset has none the engine says so (unknown-topic), never with another error."""
    engine = engine_of(game)
    topics = [t.name for t in engine.reference_topics]
    assert not set(topics) & set(RULE_TOPICS), "a topic of every game cannot be the game's own"
    drawn = set()
    for rs in _rulesets(game):
        for topic in [*topics, "setup"]:
            try:
                page = engine.reference_table(rs, topic)
            except KbgError as exc:
                assert exc.code == "unknown-topic" and topic != "setup", str(exc)
                continue
            _check_page(page)
            drawn.add(topic)
        assert engine.reference_item(rs, "no-such-piece-xyzzy") is None
    assert drawn == {*topics, "setup"}
    rs = kbgrules.load(game)
    setup = engine.reference_table(rs, "setup").json["setup"]
    assert [row["players"] for row in setup] == list(range(rs.game.min_players, rs.game.max_players + 1))


@pytest.mark.parametrize("game", GAMES)
def test_kbg_rules_shows_the_engine_pages(game: str) -> None:
    """`kbg rules GAME TOPIC --json` is the engine's page under the common head; the text shows its
    heading and its tables; a topic's alias shows the same page; the hint lists the game's topics."""
    rs = kbgrules.load(game)
    engine = engine_for(rs.data)
    head = {"kbg_json": 1, "game": rs.game.id, "edition": rs.edition.id, "variants": []}
    for topic in [*engine.reference_topics, None]:
        name = topic.name if topic is not None else "setup"
        try:
            page = engine.reference_table(rs, name)
        except KbgError:
            continue
        for word in [name, *(topic.aliases if topic is not None else ())]:
            code, out, err = kbg("rules", game, word, "--json")
            assert (code, err) == (0, "") and json.loads(out) == {**head, **page.json}
        code, out, _ = kbg("rules", game, name)
        assert code == 0 and out.startswith(page.title + "\n")
        for block in page.blocks:
            if isinstance(block, Table) and block.title:
                assert block.title in out
    code, _, err = kbg("rules", game, "qqqq-zzzz")
    topics = ", ".join([*(t.name for t in engine.reference_topics), *RULE_TOPICS])
    assert code == 2 and err.rstrip().endswith(f"try one of: {topics}"), err


def test_a_piece_page_shows_its_caution_and_sources() -> None:
    """A page's caution (a clarification) follows its blocks; its sources close it, with their titles."""
    rs = kbgrules.load("kot")
    page = engine_for(rs.data).reference_item(rs, "armor-plating")
    assert page is not None and page.note and page.sources
    out = kbg("rules", "kot", "Armor Plating")[1]
    assert out.index(page.note[:30]) < out.index("Sources") and rs.documents[page.sources[0].doc].title in out


# --------------------------------------------------------------------------- kbg score


def test_score_picks_the_one_game_that_scores() -> None:
    able = [g for g in GAMES if scorer(engine_of(g)) is not None]
    assert len(able) == 1
    by_default = kbg("score", str(GRID), "--json")
    assert by_default[0] == 0 and json.loads(by_default[1])["game"] == able[0]
    assert kbg("score", str(GRID), "--game", able[0], "--json") == by_default
    for other in set(GAMES) - set(able):
        code, out, err = kbg("score", str(GRID), "--game", other)
        assert code == 2 and out == "" and f"{other} scores no position; the games that do: {able[0]}" in err


def test_score_needs_game_where_several_or_none_score(monkeypatch: pytest.MonkeyPatch) -> None:
    kd, kot = type(engine_of("kingdomino")), type(engine_of("king-of-tokyo"))
    monkeypatch.setattr(kot, "score_position", lambda self, name, text, rs: None, raising=False)
    code, out, err = kbg("score", str(GRID))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "name the game whose rules score FILE; the games that do: king-of-tokyo, kingdomino" in err
    assert kbg("score", str(GRID), "-g", "kd")[0] == 0
    monkeypatch.delattr(kot, "score_position")
    monkeypatch.delattr(kd, "score_position")
    code, _, err = kbg("score", str(GRID))
    assert code == 2 and "no game installed scores a position" in err
    code, _, err = kbg("score", str(GRID), "-g", "kd")
    assert code == 2 and "kingdomino scores no position; no game installed scores a position" in err


def test_score_messages_name_what_the_game_reads(tmp_path: Path) -> None:
    noun = engine_of("kingdomino").position_format.noun  # type: ignore[attr-defined]
    (tmp_path / "nul").write_bytes(b"C\x00W\n")
    (tmp_path / "latin").write_bytes(b"C W1 \xe9\n")
    assert f"error binary-file: not a {noun}: " in kbg("score", str(tmp_path / "nul"))[2]
    assert f"error not-utf8: the {noun} is not UTF-8 text" in kbg("score", str(tmp_path / "latin"))[2]


# --------------------------------------------------------------------------- help


COMMANDS = ["kbg", "list", "setup", "rules", "check", "show", "score", "simulate", "site", "explain"]


def _help(page: str) -> str:
    code, out, err = kbg(*([] if page == "kbg" else [page]), "--help")
    assert (code, err) == (0, "")
    return out


@pytest.mark.parametrize("page", COMMANDS)
def test_help_names_the_installed_games(page: str) -> None:
    """Every placeholder is filled, and the page's examples hold each game's own, in catalogue order."""
    text = _help(page)
    assert not re.search(r"\{(names|games|topics|scoring|examples)\}", text), text
    examples = [x.strip() for x in text.split("Examples:\n", 1)[1].splitlines()]
    mine: list[str] = []
    for game in GAMES:
        mine += (kbgrules.load(game).data.get("examples") or {}).get(page, ())
    at = [examples.index(x) for x in mine]
    assert at == sorted(at), examples


def test_help_examples_are_for_real_pages() -> None:
    for game in GAMES:
        data: dict[str, Any] = kbgrules.load(game).data.get("examples") or {}
        assert data, f"{game} gives no help examples"
        assert set(data) <= set(COMMANDS), f"{game}: examples for no help page: {set(data) - set(COMMANDS)}"


def test_help_lists_games_and_topics_from_the_catalogue() -> None:
    rules = " ".join(_help("rules").split())
    for g in kbgrules.games():
        assert f"{g.id} ({g.aliases[0]})" in rules
        own = ", ".join(t.name for t in engine_of(g.id).reference_topics)
        assert not own or f"{g.name}: {own}" in rules
    score = " ".join(_help("score").split())
    for g in kbgrules.games():
        s = scorer(engine_of(g.id))
        assert s is None or f"{g.name} reads {s.position_format.help}" in score, score


def test_ordinary_commands_do_not_read_the_catalogue_for_help(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object) -> dict[str, Any]:
        raise AssertionError("help facts read outside help")

    monkeypatch.setattr(app_module, "_help_facts", boom)
    assert kbg("setup", "kd", "-p", "3")[0] == 0
    assert kbg("rules", "kot", "cards")[0] == 0
    assert kbg("score", str(GRID))[0] == 0
    assert kbg("--version")[0] == 0


def test_help_shows_when_the_rule_data_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("kind: variant\ngame: kingdomino\nid: broken\n", encoding="utf-8")
    code, out, err = kbg("--rules", str(tmp_path), "rules", "--help")
    assert (code, err) == (0, "") and "Game id or alias: see kbg list." in out
    assert kbg("--rules", str(tmp_path), "rules", "kd")[0] == 2  # the command itself reports the data


def test_fill_help_replaces_only_its_placeholders(monkeypatch: pytest.MonkeyPatch) -> None:
    """A help text keeps its other braces and lines; the examples line becomes the games' lines."""
    monkeypatch.setitem(app_module._state, "rules_dirs", [])
    cmd = typer.main.get_command(app).commands["setup"]  # type: ignore[attr-defined]
    cmd.help, cmd.epilog = "{games} {other}", "\b\nExamples:\n  kbg setup\n  {examples}\n  kbg list"
    app_module._fill_help(cmd, "setup")
    assert cmd.help.endswith(" {other}") and not cmd.help.startswith("{games}")
    lines = cmd.epilog.splitlines()
    assert lines[2] == "  kbg setup" and lines[-1] == "  kbg list" and len(lines) > 4
    assert all(x.startswith("  kbg ") for x in lines[2:]), lines


def test_views_used_by_pages_are_known_blocks() -> None:
    """The blocks a page may hold are those the terminal renders (Doc.view)."""
    rs = kbgrules.load("kd")
    scored = engine_of("kd").score_position(str(GRID), GRID.read_text(encoding="utf-8"), rs)  # type: ignore[attr-defined]
    assert scored.page is not None
    kinds = {type(b) for b in scored.page.blocks}
    assert kinds <= {Text, Table, Grid, Items} and Grid in kinds


def test_no_option_help_waits_for_the_catalogue() -> None:
    """Shell completion shows options' help and commands' short help as declared: no placeholder there."""
    group = typer.main.get_command(app)
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        assert "{" not in (cmd.short_help or cmd.help or "").split(".")[0], name
        for param in cmd.params:
            if param.param_type_name == "option":
                assert not re.search(r"\{\w+\}", getattr(param, "help", None) or ""), (name, param.name)
