"""King of Tokyo's short paths of reading and replaying give what the general ones give: the common
action lines, read as steps (event, action, monster) and applied straight from them, replay as their
``Parsed`` lines do, on logs as simulated and altered."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import kbgrules
from kbgrules.core.check import replay_game
from kbgrules.core.logfile import Event, GameText, iter_games
from kbgrules.core.replay import parse_events
from kbgrules.core.report import GameReport
from kbgrules.king_of_tokyo.log import Replay
from kbgrules.king_of_tokyo.parse import Item, Parsed, Parser, as_parsed, slug
from kbgrules.king_of_tokyo.report import final_json
from kbgrules.king_of_tokyo.simulate import simulate_king_of_tokyo

SETUPS = [(None, ()), ("2011", ()), ("dark", ()), (None, ("power-up",)), ("dark", ("power-up",))]


def _altered(text: str, rng: random.Random) -> str:
    """``text`` with one line changed: a word replaced, the line dropped, doubled or moved."""
    lines = text.splitlines()
    i = rng.randrange(len(lines))
    op = rng.randrange(4)
    words = lines[i].split()
    if op == 0 and len(words) > 1:
        words[rng.randrange(1, len(words))] = rng.choice(["3", "h", "S", "yield", "stay", "end", "Bob", ":"])
        lines[i] = " ".join(words)
    elif op == 1:
        del lines[i]
    elif op == 2:
        lines.insert(i, lines[rng.randrange(len(lines))])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


def _replayed(g: GameText, read: Callable[[Parser], Callable[[Event], Item]]) -> tuple[Any, ...] | None:
    """The report and final position of ``g`` replayed from what ``read`` reads (None: headers unfit)."""
    checked, _ = replay_game("a.log", g)
    if checked.game is None or (checked.errors and checked.errors[0].code == "log-header"):
        return None
    players = checked.players
    rs = kbgrules.load("king-of-tokyo", edition=checked.edition, variants=checked.variants, players=len(players))
    monsters_tag, tiles_tag = g.tag("monsters"), g.tag("tiles")
    report = GameReport("a.log", g.index, g.line, players=players)
    monsters = tuple(slug(t.text) for t in monsters_tag.values) if monsters_tag else ()
    replay = Replay("a.log", rs, players, report, monsters, tiles_tag.values[0].text if tiles_tag else "")
    items, stop = parse_events("a.log", g, report, read(Parser(rs, players)))
    replay.run(items, stop)
    return report.to_json(), None if replay.state is None else final_json(replay.state)


def _all_parsed(parser: Parser) -> Callable[[Event], Item]:
    return parser.parse


def _steps(parser: Parser) -> Callable[[Event], Item]:
    return parser.read


@pytest.mark.parametrize("setup", SETUPS)
def test_steps_replay_as_their_parsed_lines_do(setup: tuple[Any, tuple[str, ...]]) -> None:
    edition, variants = setup
    rng = random.Random(11)
    checked = 0
    for seed in range(4):
        text = simulate_king_of_tokyo(2 + seed % 3, seed, edition, variants)
        for version in [text] + [_altered(text, rng) for _ in range(12)]:
            for g, _ in iter_games("a.log", version):
                if g is None:
                    continue
                replayed = _replayed(g, _steps)
                checked += replayed is not None
                assert replayed == _replayed(g, _all_parsed)
    assert checked > 40


def test_a_step_is_the_parsed_line_of_its_event() -> None:
    """``read`` gives steps for most lines of a game, each the ``Parsed`` that ``parse`` gives."""
    text = simulate_king_of_tokyo(4, 3)
    (g, _), = list(iter_games("a.log", text))
    assert g is not None
    rs = kbgrules.load("king-of-tokyo", players=4)
    parser = Parser(rs, ("Ann", "Bob", "Cid", "Dee"))
    items = [parser.read(ev) for ev in g.events]
    steps = [x for x in items if not isinstance(x, Parsed)]
    assert len(steps) > 0.8 * len(items)
    for ev, item in zip(g.events, items, strict=True):
        parsed = parser.parse(ev)
        assert parsed == (item if isinstance(item, Parsed) else as_parsed(item))
        assert parsed.event is ev


@pytest.mark.parametrize("setup", SETUPS)
def test_card_names_in_any_case_read_as_the_general_reader_reads_them(setup: tuple[Any, tuple[str, ...]]) -> None:
    """A bought or swept card named by its id is looked up as it is; by another spelling (capitals, its
    name's words run together) through its slug, as the general reader does."""
    edition, variants = setup
    rs = kbgrules.load("king-of-tokyo", edition=edition, variants=variants, players=4)
    parser = Parser(rs, ("Ann", "Bob", "Cid", "Dee"))
    cards = [c.id for c in rs.cards][:12]
    names = {c.id: c.name for c in rs.cards}
    for cid in cards:
        for spelt in (cid, cid.upper(), cid.title(), names[cid].replace(" ", ""), "x" + cid, cid + "-"):
            for text in (f"Ann buy {spelt} : {cards[0]}", f"Bob buy {cards[1]} : {spelt}",
                         f"Cid sweep : {spelt} {cards[2]}", f"Dee sweep : {cards[3]} {spelt}"):
                ev = Event.from_text(3, text)
                try:
                    general = parser._parse(ev)
                except Exception as exc:  # the same error either way
                    with pytest.raises(type(exc)):
                        parser.parse(ev)
                    continue
                assert parser.parse(ev) == general
