"""A plug-in game: No Thanks!, an outside distribution (tests/plugins/kbg-nothanks) registered through
the entry-point group ``kbgrules.games`` and installed by the test command. It is found without
importing importlib.metadata or its own package, and works in every command and in the library as
the shipped games do; a plug-in with broken data, a missing package or a clashing id is refused in
one line. The generic suite (tests/test_engines.py) runs on it too."""

from __future__ import annotations

import doctest
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kbgrules
from kbg_cli.app import app
from kbgrules.core.check import check_text

from .conftest import ROOT

PLUGIN = ROOT / "tests" / "plugins" / "kbg-nothanks"
GOLDEN = PLUGIN / "tests" / "golden"
GAME = "nothanks"
INSTALL = "pip install tests/plugins/kbg-nothanks (README's test command does)"


def kbg(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = kbg(*args)
    assert (code, err) == (0, ""), err
    return out


def run_kbg(*args: str, path: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``kbg ARGS`` in a new process (``path``: a folder put before the installed distributions)."""
    extra = [str(ROOT), str(ROOT / "cli"), *([str(path)] if path else [])]
    environ = {k: v for k, v in os.environ.items() if k not in ("KBG_NO_PLUGINS", "KBG_RULES")}
    environ["PYTHONPATH"] = os.pathsep.join([*extra, environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "kbg_cli", *args], capture_output=True, text=True, env=environ,
                          timeout=300)


# --------------------------------------------------------------------------- found as a plug-in


def test_the_plugin_is_installed_and_found_as_importlib_metadata_finds_it() -> None:
    import importlib.metadata

    from kbgrules.core.plugins import GROUP, declared, installed

    assert [p.game for p in installed()] == [GAME], INSTALL
    [plugin] = installed()
    assert (plugin.package, plugin.distribution) == ("kbg_nothanks", "kbg-nothanks")
    # the hand-read entry points are importlib.metadata's, for this group and for others
    for group in (GROUP, "console_scripts", "pytest11"):
        ours = sorted((n, v) for n, v, _ in declared(sys.path, group))
        theirs = sorted((e.name, e.value) for e in importlib.metadata.entry_points(group=group))
        assert ours == theirs, group


def test_the_installed_plugin_is_this_checkouts() -> None:
    """As a new process finds it (pytest's collection of the plug-in's doctests puts the checkout first
    on this process's path): the CLI tests below run it so."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "cli")])}
    env.pop("KBG_NO_PLUGINS", None)
    code = "from kbgrules.core.plugins import installed; print(*(p.folder for p in installed()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    [folder] = out.stdout.split() or [INSTALL]
    there = Path(folder).parent
    for path in sorted((PLUGIN / "kbg_nothanks").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            copy = there / path.relative_to(PLUGIN / "kbg_nothanks")
            assert copy.is_file() and copy.read_bytes() == path.read_bytes(), f"{copy} is stale: {INSTALL}"


def test_finding_games_imports_neither_importlib_metadata_nor_the_plugin_package(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "cli")]),
           "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("KBG_NO_PLUGINS", None)

    def imported(code: str) -> list[str]:
        code += "; print(sorted(m for m in sys.modules if m in ('importlib.metadata', 'kbg_nothanks')))"
        out = subprocess.run([sys.executable, "-c", f"import sys; {code}"], capture_output=True, text=True, env=env,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip().splitlines()

    assert imported("import kbgrules") == ["[]"]
    assert imported("import kbgrules; print([g.id for g in kbgrules.games()]); kbgrules.load('kd', players=3)") \
        == ["['king-of-tokyo', 'kingdomino', 'nothanks']", "[]"]
    assert imported("import kbgrules; kbgrules.load('nothanks', players=3)") == ["['kbg_nothanks']"]  # its engine
    search = "from kbgrules.explain import search; print(search('what if I have no chips').best.id)"
    assert imported(search) == ["nt.faq.no-chips", "['kbg_nothanks']"]  # the index built: the engine's entries
    assert imported(search) == ["nt.faq.no-chips", "[]"]  # then read from the cache


def test_kbg_no_plugins_hides_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from kbgrules.core.data import resolve

    monkeypatch.setenv("KBG_NO_PLUGINS", "1")
    assert [g.id for g in kbgrules.games()] == ["king-of-tokyo", "kingdomino"]
    with pytest.raises(kbgrules.UnknownNameError):
        resolve(GAME)  # (kbgrules.load keeps what it loaded for the life of the process)
    from kbgrules.explain import games

    assert GAME not in games()


def test_no_line_of_kbgrules_the_cli_or_the_shipped_data_names_it() -> None:
    names = re.compile(r"nothanks|no[ -]thanks|kbg_nothanks|kbg-nothanks|geschenkt|gimmler|\bnt\.", re.I)
    for folder in (ROOT / "kbgrules", ROOT / "cli", ROOT / "rules_data"):
        for path in folder.rglob("*"):
            if path.suffix in (".py", ".j2", ".js", ".css", ".json", ".jsonl", ".yaml") and path.is_file():
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    assert not names.search(line), f"{path}:{n}: {line.strip()}"


# --------------------------------------------------------------------------- every command


def test_kbg_list_shows_it_beside_the_shipped_games() -> None:
    out = ok("list")
    assert out.index("King of Tokyo (king-of-tokyo)") < out.index("Kingdomino (kingdomino)") \
        < out.index("No Thanks! (nothanks) - 3 to 7 players")
    assert "tactical  option 3/4/5p  Tactical variant (Board Game Arena)" in " ".join(out.split("  ")) or \
        re.search(r"tactical\s+option 3/4/5p\s+Tactical variant", out)
    data = json.loads(ok("list", "--json"))
    [nt] = [g for g in data["games"] if g["id"] == GAME]
    assert nt["players"] == {"min": 3, "max": 7} and [e["id"] for e in nt["editions"]] == ["standard"]
    assert [v["id"] for v in nt["variants"]] == ["tactical"] and "geschenkt" in nt["aliases"]


@pytest.mark.parametrize(("players", "chips"), [(3, 11), (5, 11), (6, 9), (7, 7)])
def test_kbg_setup(players: int, chips: int) -> None:
    out = ok("setup", "no-thanks", "-p", str(players))
    assert f"24 of the 33 cards played (9 removed unseen), {chips} chips each." in out
    assert "Rules: nt.setup.chips" in out
    facts = json.loads(ok("setup", GAME, "-p", str(players), "--json"))["facts"]
    assert (facts["chips_per_player"], facts["deck_size"], facts["chips_in_play"]) == (chips, 24, chips * players)
    tactical = json.loads(ok("setup", GAME, "-p", "4", "-v", "tactical", "--json"))["facts"]
    assert tactical["chips_per_player"] == 10 and tactical["always_removed"] == [10, 20, 30]


def test_kbg_setup_refuses_a_count_in_one_line() -> None:
    code, out, err = kbg("setup", GAME, "-p", "2")
    assert (code, out) == (2, "") and err == "kbg: error player-count: No Thanks! is for 3 to 7 players, not 2\n"
    code, out, err = kbg("setup", GAME, "-p", "6", "-v", "tactical")
    assert code == 2 and err.startswith("kbg: error player-count: Tactical variant") and err.count("\n") == 1


def test_kbg_rules() -> None:
    out = ok("rules", GAME)
    assert "nt.turn.no-chips" in out and "nt.end.winner" in out and "kbg rules nothanks ID" in out
    out = ok("rules", "nt", "nt.end.winner")
    assert "The lowest score wins" in out and "Sources differ: Neither the rulebook" in out
    assert "R1: No Thanks! rulebook" in out
    assert re.search(r"6\s+9\s+54\s+1", ok("rules", GAME, "setup"))  # chips each, in play, in the box
    assert "Board Game Arena" in ok("rules", GAME, "documents")
    code, _, err = kbg("rules", GAME, "dominoes")
    assert code == 2 and "try one of: components, documents, setup" in err


def test_kbg_check_a_clean_log() -> None:
    out = ok("check", str(GOLDEN / "three-players.log"))
    assert "three-players.log game 1 (No Thanks!, Standard rules (Amigo, 2004); 3 players): valid" in out
    assert "Winner: Cid (71 points)" in out
    assert re.search(r"1\s+Cid\s+71\s+5 9-10 13 22 34\s+83\s+12", out)


@pytest.mark.parametrize(("log", "line", "col", "code", "rule"), [
    ("no-chips.log", 38, 5, "nt-no-chips", "nt.turn.no-chips"),
    ("card-seen.log", 9, 8, "nt-card-seen", "nt.setup.removed"),
])
def test_kbg_check_stops_at_the_first_violation(log: str, line: int, col: int, code: str, rule: str) -> None:
    path = str(GOLDEN / log)
    exit_code, out, err = kbg("check", path)
    assert exit_code == 1 and f"{path}:{line}:{col}: error {code}: " in err
    assert err.splitlines()[0].endswith(f"[{rule}]")
    assert "rule violation" in out and "Where checking stopped:" in out
    [v] = json.loads(kbg("check", "--json", path)[1])["games"][0]["violations"]
    assert (v["line"], v["col"], v["code"], v["rule"]) == (line, col, code, rule)
    assert kbgrules.load(GAME).rule(rule).title  # `kbg rules nothanks RULE` explains it


def test_a_violation_made_up_from_a_clean_log() -> None:
    """A pass by a player whose turn it is not, put into a clean log, is caught at its line."""
    lines = (GOLDEN / "three-players.log").read_text(encoding="utf-8").splitlines()
    k = next(i for i, t in enumerate(lines) if t.startswith("Bob pass"))
    lines.insert(k, "Cid pass")
    report = check_text("bad.log", "\n".join(lines) + "\n")
    [g] = report.games
    assert report.exit_code == 1 and (g.violations[0].line, g.violations[0].code) == (k + 1, "nt-wrong-player")
    assert g.violations[0].rule == "nt.turn.order" and "not Cid's" in g.violations[0].message


@pytest.mark.parametrize("log", sorted(GOLDEN.glob("*.log")), ids=lambda p: p.name)
def test_golden_log_matches_its_report(log: Path) -> None:
    """Regenerate with ``python tests/plugins/kbg-nothanks/tests/update_golden.py`` after an intended change."""
    got = check_text(str(log.relative_to(ROOT)), log.read_text(encoding="utf-8")).to_json()
    assert got == json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))
    [game] = got["games"]
    assert game["game"] == GAME and game["valid"] == (not log.stem.startswith(("no-chips", "card-seen")))


def test_golden_logs_cover_the_rules() -> None:
    final = {p.stem: json.loads(p.read_text(encoding="utf-8"))["games"][0]["final"] for p in GOLDEN.glob("*.json")}
    assert final["shared-victory"]["winners"] == ["Ann", "Dee"]
    assert final["seven-players-unseen"]["removed"] is None and len(final["seven-players-unseen"]["players"]) == 7
    assert final["tactical"]["removed"] is not None and {10, 20, 30} <= set(final["tactical"]["removed"])
    assert all(f["finished"] for name, f in final.items() if name not in ("no-chips", "card-seen"))
    assert "@start position" in (GOLDEN / "from-position.log").read_text(encoding="utf-8")


def test_kbg_show_goes_card_by_card() -> None:
    out = ok("show", str(GOLDEN / "three-players.log"))
    assert "game 1: No Thanks!, card by card: each score (chips) once the card is taken" in out
    assert re.search(r"1\s+20\s+Ann\s+0\s+9 \(11\)\s+-11 \(11\)\s+-11 \(11\)", out)
    assert re.search(r"24\s+34\s+Cid\s+0\s+122 \(12\)\s+122 \(9\)\s+71 \(12\)", out)
    assert "Winner: Cid (71 points)" in out


def test_kbg_check_html(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    code, _, _ = kbg("check", str(GOLDEN / "shared-victory.log"), str(GOLDEN / "no-chips.log"), "--html", str(page))
    assert code == 1
    text = page.read_text(encoding="utf-8")
    assert "Shared victory: Ann, Dee (tied on 57 points)" in text
    assert "Score after each card taken (the lowest wins)" in text and "<svg" in text
    assert "nt-no-chips" in text and "No chip, no refusal" in text  # the rule it breaks, with its text
    assert "A player who has none left cannot refuse" in text


def test_kbg_explain_finds_its_entries(capsys: pytest.CaptureFixture[str]) -> None:
    from kbg_cli.explain_cmd import run
    from kbgrules.explain import games, search

    for question, expected in [("what if I have no chips left?", "nt.faq.no-chips"),
                               ("how do runs of consecutive cards score", "nt.faq.run-scoring"),
                               ("nt.turn.after-take", "nt.turn.after-take"),
                               ("Zahlenreihe zählen", "nt.faq.run-scoring")]:
        assert search(question).best.id == expected, question
    assert games()[GAME]["short"] == "nt" and games()[GAME]["names"]["de"] == "Geschenkt ... ist noch zu teuer!"
    assert run(["what if I have no chips left?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("What happens when I have no chips left?  [nt.faq.no-chips, No Thanks!]")
    assert "R1: No Thanks! rulebook" in out
    assert run(["--game", "no thanks", "tie"]) == 0
    assert "[nt.faq.tie, No Thanks!]" in capsys.readouterr().out.splitlines()[0]
    assert search("can I heal in tokyo?").best.id == "kot.faq.heal-in-tokyo"  # the shipped games' answers stay


def test_the_explain_index_is_rebuilt_when_a_plugin_comes_goes_or_changes(tmp_path: Path) -> None:
    from kbgrules.core.plugins import Plugin, installed
    from kbgrules.explain.store import _user_digest

    [real] = installed()
    copy = tmp_path / "kbg_nothanks"
    shutil.copytree(PLUGIN / "kbg_nothanks", copy, ignore=shutil.ignore_patterns("__pycache__"))
    moved = Plugin(real.game, real.package, real.distribution, str(copy / "rules_data"))
    before = _user_digest((), (moved,))
    assert before != _user_digest((), ()) and before == _user_digest((), (moved,))
    faq = copy / "rules_data" / "faq.yaml"
    faq.write_text(faq.read_text(encoding="utf-8").replace("You cannot refuse", "You may not refuse"),
                   encoding="utf-8")
    assert _user_digest((), (moved,)) != before


def test_kbg_site_has_its_pages(tmp_path: Path) -> None:
    code, _, err = kbg("site", str(tmp_path))
    assert code == 0 and "wrote" in err
    rules = (tmp_path / "nothanks-rules.html").read_text(encoding="utf-8")
    assert 'id="nt.turn.no-chips"' in rules and 'id="nt.option.tactical"' in rules
    assert 'id="nt.faq.tie"' in (tmp_path / "nothanks-faq.html").read_text(encoding="utf-8")
    setup = (tmp_path / "nothanks-setup.html").read_text(encoding="utf-8")
    assert "7 players" in setup and "chips per player" in setup
    assert "No Thanks!" in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "nt.faq.no-chips" in (tmp_path / "search-index.js").read_text(encoding="utf-8")


@pytest.mark.parametrize(("players", "seed", "variant"), [(3, 1, None), (7, 4, None), (5, 9, "tactical")])
def test_kbg_simulate(players: int, seed: int, variant: str | None, tmp_path: Path) -> None:
    args = ["simulate", GAME, "-p", str(players), "--seed", str(seed), *(["-v", variant] if variant else [])]
    text = ok(*args)
    assert text == ok(*args) and text.startswith(f"# random legal game: kbg simulate nothanks --players {players}")
    assert sum(line.startswith("reveal ") for line in text.splitlines()) == 24
    log = tmp_path / "sim.log"
    log.write_text(text, encoding="utf-8")
    assert "valid" in ok("check", str(log)).splitlines()[0]


def test_the_cli_in_a_new_process() -> None:
    r = run_kbg("setup", GAME, "-p", "3")
    assert r.returncode == 0 and "11 chips each" in r.stdout
    r = run_kbg("check", str(GOLDEN / "no-chips.log"))
    assert r.returncode == 1 and "error nt-no-chips" in r.stderr and "Traceback" not in r.stderr


# --------------------------------------------------------------------------- the library


def test_the_library_plays_it_move_by_move() -> None:
    game = kbgrules.new_game("no thanks", ["Ann", "Bob", "Cid"])
    assert game.is_chance() and game.turn is None and len(game.chance_outcomes()) == 38_567_100
    assert game.push_text("reveal 27") == game.parse_move("reveal 27")  # the removal left unstated
    reveals = game.push_text("Ann pass"), game.push_text("Bob take")
    assert game.is_chance() and game.turn is None
    outcomes = game.chance_outcomes()
    assert len(outcomes) == 32 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert "reveal 27" not in {game.move_text(m) for m, _ in outcomes}
    game.push_text("reveal 3")
    assert game.turn == "Bob" and [game.move_text(m) for m in game.legal_moves()] == ["Bob take", "Bob pass"]
    with pytest.raises(kbgrules.IllegalMoveError) as info:
        game.push_text("Cid take")
    assert (info.value.code, info.value.rule) == ("nt-wrong-player", "nt.turn.order")
    assert game.push_text("expect chips Bob 12") is None
    with pytest.raises(kbgrules.IllegalMoveError, match="Bob's score: the log says 0, the replay gives 15"):
        game.push_text("expect score Bob 0")
    text = game.position_text()
    [again] = kbgrules.read_games(text)
    assert again.replay().position_text() == text
    assert [game.pop() for _ in range(2)][1] == reveals[1] and game.turn == "Bob" and game.state.pot == 1


def test_a_replayed_log_pops_back_to_its_start() -> None:
    [logged] = kbgrules.read_games(GOLDEN / "three-players.log")
    game = logged.replay()
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == ("Cid",) and str(outcome) == "Cid wins (71 points)"
    start = kbgrules.new_game(GAME, ["Ann", "Bob", "Cid"]).position_text()
    while game.moves:
        game.pop()
    assert game.position_text() == start


def test_a_bot_plays_to_the_end_and_its_log_checks_clean() -> None:
    rng = random.Random(3)
    game = kbgrules.new_game(GAME, ["Ann", "Bob", "Cid", "Dee"], variants=["tactical"])
    while not game.is_over():
        game.push(game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves()))
    assert check_text("bot.log", game.log_text()).exit_code == 0
    removal = game.moves[0]
    assert {10, 20, 30} <= set(getattr(removal, "cards", ()))


def test_the_plugin_modules_doctests() -> None:
    import kbg_nothanks.chance
    import kbg_nothanks.game

    for module in (kbg_nothanks.chance, kbg_nothanks.game):
        failed, tried = doctest.testmod(module)
        assert failed == 0 and tried > 0, module.__name__


# --------------------------------------------------------------------------- broken and clashing plug-ins


def _fake_plugin(site: Path, game: str, package: str = "fake_games", data: bool = True) -> Path:
    """A distribution in ``site`` that registers ``game`` from ``package``; with ``data``, a copy of No
    Thanks!'s rule data under that id. Returns the package's rules_data folder."""
    dist = site / f"{package}-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[kbgrules.games]\n{game} = {package}\n", encoding="utf-8")
    folder = site / package / "rules_data"
    folder.mkdir(parents=True)
    (site / package / "__init__.py").write_text("raise SystemExit('the package must not be imported')\n")
    if data:
        for src in (PLUGIN / "kbg_nothanks" / "rules_data").rglob("*"):
            if src.is_file():
                dst = folder / src.relative_to(PLUGIN / "kbg_nothanks" / "rules_data")
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(re.sub(r"(?<!kbg_)nothanks", game, src.read_text(encoding="utf-8")),
                               encoding="utf-8")  # the same engine plays it
        (folder / "schema" / "nothanks.game.schema.json").rename(folder / "schema" / f"{game}.game.schema.json")
    else:
        (folder / "game.yaml").write_text(f"kind: game\nid: {game}\n", encoding="utf-8")
    return folder


def test_a_copy_under_another_id_works(tmp_path: Path) -> None:
    _fake_plugin(tmp_path, "nothanks-copy")
    r = run_kbg("setup", "nothanks-copy", "-p", "6", path=tmp_path)
    assert r.returncode == 0 and "9 chips each" in r.stdout, r.stderr


@pytest.mark.parametrize(("edit", "where", "message"), [
    (("players: {min: 3, max: 7}", 'players: {min: 3, max: "7"}'), "game.yaml:13:", "error schema: '7' is not of type"),
    (("kind: faq", "kind: faq\nkind: faq"), "faq.yaml:4:1:", "error duplicate-key: duplicate key 'kind'"),
    (("related: [nt.turn.no-chips, nt.turn.actions]", "related: []"), "faq.yaml:",
     "error schema: [] should be non-empty"),
])
def test_a_plugin_with_broken_data_is_refused_in_one_line(tmp_path: Path, edit: tuple[str, str], where: str,
                                                          message: str) -> None:
    folder = _fake_plugin(tmp_path, "broken")
    for path in folder.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        if edit[0] in text:
            path.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
            break
    else:
        pytest.fail(f"no file holds {edit[0]!r}")
    r = run_kbg("list", path=tmp_path)
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    [line] = r.stderr.splitlines()
    assert line.startswith(f"kbg: {folder}/") and where in line and message in line, line
    ok_ = run_kbg("setup", "kingdomino", "-p", "3", path=tmp_path)  # a shipped game by its id: no plug-in read
    assert ok_.returncode == 0 and "36 dominoes used" in ok_.stdout


def test_a_broken_variant_refuses_the_plugin_even_where_it_is_not_used(tmp_path: Path) -> None:
    """Every load a plug-in game offers is checked before any is used (then kept as checked)."""
    folder = _fake_plugin(tmp_path, "broken-variant")
    variant = folder / "variants" / "tactical.yaml"
    variant.write_text(variant.read_text(encoding="utf-8").replace("    always_removed: [10", "    always_remove: [10"),
                       encoding="utf-8")
    r = run_kbg("setup", "broken-variant", "-p", "3", path=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"kbg: {variant}:20:5: error schema: unknown key 'always_remove'; did you mean "
                               "'always_removed'?"), r.stderr


def test_checked_files_are_kept_in_the_cache_and_checked_again_once_changed(tmp_path: Path) -> None:
    folder = _fake_plugin(tmp_path / "site", "cached")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "cli"), str(tmp_path / "site")])}
    env.pop("KBG_NO_PLUGINS", None)
    code = "import sys, kbgrules; kbgrules.load('cached', players=3); print('jsonschema' in sys.modules)"

    def checks() -> str:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        return (out.stdout or out.stderr).strip()

    assert checks() == "True"  # read and checked, then kept
    assert checks() == "False"  # read from the cache: no YAML parsed, no schema loaded
    assert len(list((tmp_path / "cache" / "kbg").glob("plugin-cached-*.json"))) == 1
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("year: 2004", "year: 1850"), encoding="utf-8")
    assert checks().endswith("game.yaml:10:7: error schema: 1850 is less than the minimum of 1900")
    env["KBG_NO_CACHE"] = "1"
    game.write_text(game.read_text(encoding="utf-8").replace("year: 1850", "year: 2004"), encoding="utf-8")
    assert checks() == "True"


def test_a_plugin_without_its_schema_or_package_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = _fake_plugin(tmp_path / "a", "schemaless")
    (folder / "schema" / "schemaless.game.schema.json").unlink()
    r = run_kbg("list", path=tmp_path / "a")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"kbg: {folder}/schema/schemaless.game.schema.json:1:1: error plugin-schema: ")
    site = tmp_path / "b"
    (site / "gone-0.1.dist-info").mkdir(parents=True)
    (site / "gone-0.1.dist-info" / "entry_points.txt").write_text("[kbgrules.games]\ngone = gone_pkg\n")
    r = run_kbg("explain", "yield", path=site)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("kbg: error plugin-missing: the plug-in gone (entry point gone = 'gone_pkg'")


def test_a_plugin_whose_id_clashes_is_refused_in_one_line(tmp_path: Path) -> None:
    _fake_plugin(tmp_path / "a", "kingdomino", data=False)
    r = run_kbg("list", path=tmp_path / "a")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("kbg: error plugin-clash: the plug-in fake_games gives the game 'kingdomino', "
                               "which kbg ships")
    shipped = run_kbg("check", str(ROOT / "examples" / "kingdomino" / "two-players.log"), path=tmp_path / "a")
    assert shipped.returncode == 0  # a log of a shipped game named by its id reads no plug-in
    _fake_plugin(tmp_path / "b", "nothanks", package="other_games", data=False)
    r = run_kbg("list", path=tmp_path / "b")
    assert r.returncode == 2 and r.stderr.startswith("kbg: error plugin-clash: the plug-in ")
    assert "gives the game 'nothanks', which the plug-in " in r.stderr and r.stderr.count("\n") == 1


@pytest.mark.parametrize("log", sorted(GOLDEN.glob("*.log")), ids=lambda p: p.name)
def test_a_plugin_games_json_follows_the_documented_schema(log: Path) -> None:
    """docs/check-output.schema.json takes a plug-in game's own ``final`` (an object), and still holds
    the shipped games to theirs."""
    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[1] / "docs" / "check-output.schema.json")
                        .read_text(encoding="utf-8"))
    _, out, _ = kbg("check", "--json", str(log))
    report = json.loads(out)
    jsonschema.validate(report, schema)
    report["games"][0]["game"] = "kingdomino"  # the same final as a Kingdomino game's: refused
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(report, schema)
