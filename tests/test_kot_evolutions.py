"""Power Up! evolutions: the draw rules, the official options, and every evolution card (one test each)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

import kbgrules
from kbgrules.core.check import check_text
from kbgrules.core.report import CheckReport
from kbgrules.errors import IllegalMoveError
from kbgrules.king_of_tokyo.cards.base import HOOKS
from kbgrules.king_of_tokyo.cards.evolutions import HOOKS as EVOLUTION_HOOKS
from kbgrules.king_of_tokyo.state import (
    Buy,
    Decide,
    EndTurn,
    Evolve,
    Keep,
    KingOfTokyoState,
    Play,
    Reroll,
    Roll,
    Use,
)

NAMES = ["Ann", "Bob", "Cid", "Dee"]
FILLER = ["corner-store", "heal", "tank"]
NEUTRAL = ("1", "1", "2", "2", "3", "3")  # no set, no energy, no heart, no smash
RS = kbgrules.load("king-of-tokyo", variants=["power-up"], players=2)
MONSTER = {c.id: c.monster for c in RS.evolutions}
COVERED: set[str] = set()
UNSUPPORTED: list[str] = []  # every evolution replays (Freeze Ray and Encased in Ice since issue 14)


def covers(*cards: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def mark(f: Callable[..., None]) -> Callable[..., None]:
        COVERED.update(cards)
        return f
    return mark


def game(*monsters: str, variants: tuple[str, ...] = ("power-up",), first: int = 0) -> KingOfTokyoState:
    rs = kbgrules.load("king-of-tokyo", variants=list(variants), players=len(monsters))
    return KingOfTokyoState(rs, NAMES[:len(monsters)], list(FILLER), first=first, monsters=list(monsters))


def owner_game(card: str, players: int = 2, first: int = 0) -> KingOfTokyoState:
    """Ann plays ``card``'s monster and holds the card; the others play other monsters."""
    others = [m for m in ("gigazaur", "the-king", "alienoid", "space-penguin") if m != MONSTER[card]]
    st = game(MONSTER[card], *others[:players - 1], first=first)
    give(st, 0, card)
    return st


def give(st: KingOfTokyoState, who: int, card: str) -> None:
    m = st.monsters[who]
    if m.evo_deck[card] > 0:
        m.evo_deck[card] -= 1
    m.hand.append(card)


def roll(st: KingOfTokyoState, *faces: str) -> None:
    word = {"e": "energy", "h": "heart", "s": "smash"}
    st.apply(Roll(tuple(word.get(f, f) for f in faces)))


def play(st: KingOfTokyoState, who: int, card: str, *args: str) -> None:
    st.apply(Play(who, card, args))


def use(st: KingOfTokyoState, who: int, card: str, *args: str) -> None:
    st.apply(Use(who, f"evolution:{card}", args))


def refused(code: str, action: Callable[[], None]) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        action()
    assert info.value.code == code, info.value
    return info.value


def in_city(st: KingOfTokyoState, who: int) -> None:
    st.monsters[who].location = "city"


# ---------------------------------------------------------------- drawing evolutions


def test_three_hearts_draw_the_top_evolution() -> None:
    st = game("the-king", "gigazaur")
    roll(st, "h", "h", "h", "1", "2", "3")
    st.apply(Evolve(0, ("giant-banana",), ("giant-banana",)))
    ann = st.monsters[0]
    assert ann.hand == ["giant-banana"] and ann.evo_deck["giant-banana"] == 0
    assert sum(ann.evo_deck.values()) == 7
    st.apply(EndTurn(0))
    assert st.active == 1


def test_the_draw_works_in_tokyo_too() -> None:
    st = game("the-king", "gigazaur")
    in_city(st, 0)
    roll(st, "h", "h", "h", "1", "2", "3")
    st.apply(Evolve(0, ("alpha-male",), ("alpha-male",)))
    assert st.monsters[0].hand == ["alpha-male"] and st.monsters[0].hp == 10


def test_one_draw_per_turn_whatever_the_hearts() -> None:
    st = game("the-king", "gigazaur")
    st.monsters[0].hp = 4
    roll(st, "h", "h", "h", "h", "h", "h")
    st.apply(Evolve(0, ("giant-banana",), ("giant-banana",)))
    assert st.monsters[0].hp == 10  # the hearts heal as usual
    refused("evo-not-owed", lambda: st.apply(Evolve(0, ("alpha-male",), ("alpha-male",))))


def test_fewer_than_three_hearts_draw_nothing() -> None:
    st = game("the-king", "gigazaur")
    roll(st, "h", "h", "1", "2", "3", "s")
    err = refused("evo-not-owed", lambda: st.apply(Evolve(0, ("giant-banana",), ("giant-banana",))))
    assert "fewer than 3 hearts" in str(err)
    refused("evo-not-owed", lambda: st.apply(Evolve(1, ("heat-vision",), ("heat-vision",))))  # not Bob's turn


def test_a_card_from_another_deck_is_refused() -> None:
    st = game("the-king", "gigazaur")
    roll(st, "h", "h", "h", "1", "2", "3")
    err = refused("evo-not-in-deck", lambda: st.apply(Evolve(0, ("radioactive-waste",), ("radioactive-waste",))))
    assert "not one of the-king's evolutions" in str(err)


def test_not_drawing_an_owed_evolution() -> None:
    st = game("the-king", "gigazaur")
    roll(st, "h", "h", "h", "1", "2", "3")
    refused("evo-not-drawn", lambda: st.apply(EndTurn(0)))


def test_a_secret_draw_is_named_when_played() -> None:
    st = game("the-king", "gigazaur")
    st.monsters[0].hp = 5
    roll(st, "h", "h", "h", "1", "2", "3")  # +3 life
    st.apply(Evolve(0, ("?",), ("?",)))
    ann = st.monsters[0]
    assert ann.hand == ["?"] and ann.secret == 1
    refused("evo-not-in-hand", lambda: play(st, 0, "radioactive-waste"))  # not in the King's deck
    play(st, 0, "giant-banana")
    assert ann.hand == [] and ann.hp == 10 and ann.evo_discard["giant-banana"] == 1
    refused("evo-not-in-hand", lambda: play(st, 0, "giant-banana"))


def test_an_empty_deck_owes_nothing() -> None:
    st = game("the-king", "gigazaur")
    st.monsters[0].evo_deck = Counter()
    roll(st, "h", "h", "h", "1", "2", "3")
    refused("evo-not-owed", lambda: st.apply(Evolve(0, ("giant-banana",), ("giant-banana",))))
    st.apply(EndTurn(0))  # no evo-not-drawn
    assert st.active == 1


def test_temporary_and_permanent_evolutions() -> None:
    st = game("the-king", "gigazaur")
    give(st, 0, "giant-banana")
    give(st, 0, "i-am-the-king")
    play(st, 0, "giant-banana")
    play(st, 0, "i-am-the-king")
    ann = st.monsters[0]
    assert ann.evo_discard == Counter({"giant-banana": 1})  # temporary: discarded at once
    assert ann.evolutions == ["i-am-the-king"] and "evolution:i-am-the-king" in st.in_play(ann)  # permanent


def test_controlled_evolution_draws_two_and_slides_one_under() -> None:
    st = game("the-king", "gigazaur", variants=("power-up", "controlled-evolution"))
    roll(st, "h", "h", "h", "1", "2", "3")
    refused("evo-keep", lambda: st.apply(Evolve(0, ("giant-banana",), ("giant-banana",))))
    st.apply(Evolve(0, ("giant-banana", "alpha-male"), ("giant-banana",)))
    ann = st.monsters[0]
    assert ann.hand == ["giant-banana"] and ann.evo_bottom == ["alpha-male"] and ann.evo_deck["alpha-male"] == 1
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)
    st.apply(EndTurn(1))
    roll(st, "h", "h", "h", "1", "2", "3")
    err = refused("evo-not-in-deck", lambda: st.apply(Evolve(0, ("alpha-male", "monkey-rush"), ("monkey-rush",))))
    assert "under the deck" in str(err)
    ann.evo_deck = Counter({"monkey-rush": 1, "alpha-male": 1})  # only the card above it is left
    st.apply(Evolve(0, ("monkey-rush", "alpha-male"), ("alpha-male",)))
    assert ann.hand == ["giant-banana", "alpha-male"] and ann.evo_bottom == ["monkey-rush"]


def test_active_evolution_starts_with_one_card() -> None:
    st = game("the-king", "gigazaur", variants=("power-up", "active-evolution"))
    assert st.starting and [m.evo_owed for m in st.monsters] == [1, 1]
    refused("evo-not-owed", lambda: roll(st, *NEUTRAL))
    st.apply(Evolve(0, ("?",), ("?",)))
    st.apply(Evolve(1, ("heat-vision",), ("heat-vision",)))
    refused("evo-not-owed", lambda: st.apply(Evolve(1, ("gamma-breath",), ("gamma-breath",))))
    roll(st, *NEUTRAL)
    assert [m.hand for m in st.monsters] == [["?"], ["heat-vision"]] and not st.starting


# ---------------------------------------------------------------- logs


LOG = """\
@game king-of-tokyo
@variant power-up
@players Ann Bob
@monsters the-king gigazaur
market corner-store heal tank
Ann roll h h h 1 2 3
Ann evolve giant-banana
Ann end
Bob roll s s 1 2 3 e
Bob end
Ann play giant-banana
expect Ann hp 10
expect Ann vp 3
"""


def run(text: str) -> CheckReport:
    return check_text("t.log", text)


def edit(lineno: int, new: str, text: str = LOG) -> str:
    lines = text.splitlines()
    lines[lineno - 1] = new
    return "\n".join(line for line in lines if line != "-") + "\n"


def test_evolution_log_checks_clean() -> None:
    report = run(LOG)
    assert report.exit_code == 0, [str(v) for g in report.games for v in [*g.violations, *g.errors]]
    final = report.games[0].final
    assert final is not None
    assert [(m["name"], m["hp"], m["hand"], m["monster"]) for m in final["monsters"]] == [
        ("Ann", 10, [], "the-king"), ("Bob", 10, [], "gigazaur")]


@pytest.mark.parametrize("text,line,col,code", [
    (edit(7, "Ann evolve radioactive-waste"), 7, 1, "evo-not-in-deck"),
    (edit(7, "-"), 7, 1, "evo-not-drawn"),
    (edit(10, "Bob evolve heat-vision"), 10, 1, "evo-not-owed"),
    (edit(11, "Ann play alpha-male"), 11, 1, "evo-not-in-hand"),
    (edit(7, "Ann evolve jungle-frenzy\nAnn play jungle-frenzy"), 8, 1, "evo-play"),
])
def test_evolution_log_violations(text: str, line: int, col: int, code: str) -> None:
    report = run(text)
    (g,) = report.games
    assert g.errors == [] and report.exit_code == 1
    (v,) = g.violations
    assert (v.line, v.col, v.code) == (line, col, code)


def test_evolution_log_errors() -> None:
    (g,) = run(edit(7, "Ann evolve no-such-card")).games
    assert [(e.line, e.col, e.code) for e in g.errors] == [(7, 12, "log-card")]


FREEZE_RAY_LOG = """\
@game king-of-tokyo
@variant power-up
@players Ann Bob Cid
@monsters space-penguin gigazaur the-king
Ann is evolutions=freeze-ray
Bob is place=city
market corner-store heal tank
turn Ann
Ann roll s s 1 2 3 h
Ann keep
Ann use freeze-ray Bob
Bob stay
Ann end
Ann use freeze-ray s
Bob roll s s s 1 1 1
Bob end
expect Ann hp 10
expect Cid hp 10
expect Bob vp 3
Cid roll s 1 1 2 2 3
Cid end
expect Bob hp 7
"""

ENCASED_LOG = """\
@game king-of-tokyo
@variant power-up
@players Ann Bob
@monsters space-penguin gigazaur
Ann is evolutions=encased-in-ice energy=1
market corner-store heal tank
turn Ann
Ann roll h 1 1 2 2 3
Ann use encased-in-ice h
Ann end
expect Ann energy 0
Bob roll h 1 2 3 3 3
Bob reroll 1 2 : 3 e
Bob end
expect Bob vp 4
Ann roll 1 1 2 2 3 3
Ann end
"""


@pytest.mark.parametrize(("text", "line", "new", "at", "code"), [
    (FREEZE_RAY_LOG, 11, "Ann use freeze-ray Cid", 11, "evo-play"),  # Cid was not wounded in Tokyo
    (FREEZE_RAY_LOG, 14, "# Ann names no face", 15, "kot-unexpected"),  # so Bob may not roll yet
    (FREEZE_RAY_LOG, 16, "Bob reroll s : 1\nBob end", 16, "evo-frozen-die"),
    (ENCASED_LOG, 12, "Bob roll 1 1 2 3 3 3", 12, "evo-frozen-die"),  # the frozen heart is in Bob's roll
    (ENCASED_LOG, 13, "Bob reroll h 1 : 3 e", 13, "evo-frozen-die"),
    (ENCASED_LOG, 9, "Ann use encased-in-ice s", 9, "evo-play"),  # no die shows a smash
])
def test_freeze_ray_and_encased_in_ice_in_logs(text: str, line: int, new: str, at: int, code: str) -> None:
    assert run(text).exit_code == 0, [str(x) for g in run(text).games for x in (*g.errors, *g.violations)]
    (g,) = run(edit(line, new, text)).games
    assert g.errors == [] and [(v.line, v.code) for v in g.violations][:1] == [(at, code)], \
        [str(v) for v in g.violations]


USES = """\
@game king-of-tokyo
@variant power-up
@players Ann Bob
@monsters gigazaur the-king
market corner-store heal tank
Ann roll h h h 1 1 2
Ann evolve gamma-breath
Ann play gamma-breath
Ann end
Bob roll h h h 1 2 3
Bob evolve ?
Bob end
Ann roll 1 1 2 2 3 3
Ann use gamma-breath 1
Ann end
Bob play giant-banana
expect Bob hp 10
expect Ann vp 3
expect Ann evolutions gamma-breath
"""


def test_evolutions_used_in_a_log() -> None:
    report = run(USES)
    assert report.exit_code == 0, [str(v) for g in report.games for v in [*g.violations, *g.errors]]
    (g,) = run(edit(15, "Ann use gamma-breath 2", USES)).games  # once per turn
    assert [(v.line, v.col, v.code) for v in g.violations] == [(15, 1, "evo-play")]
    text = edit(16, "Bob play alpha-male\nexpect Bob evolutions alpha-male", edit(17, "expect Bob hp 9", USES))
    (g,) = run(text).games  # the secret card was another one
    assert g.violations == [] and g.errors == []


DRAFT = """\
@game king-of-tokyo
@variant evolution-draft
@players Ann Bob
market corner-store heal tank
Ann evolutions giant-banana radioactive-waste alien-scourge mouse-hunter cat-nip tune-up yin-and-yang heat-vision
Bob evolutions primal-bellow electro-scratch bear-necessities panda-monium mega-purr gamma-breath tail-sweep mecha-blast
Ann roll h h h 1 2 3
Ann evolve alien-scourge
Ann play alien-scourge
Ann end
expect Ann vp 3
"""


def test_evolution_draft_decks_come_from_the_log() -> None:
    report = run(DRAFT)
    assert report.exit_code == 0, [str(v) for g in report.games for v in [*g.violations, *g.errors]]
    (g,) = run(edit(8, "Ann evolve primal-bellow", DRAFT)).games
    assert [(v.line, v.col, v.code) for v in g.violations] == [(8, 1, "evo-not-in-deck")]
    (g,) = run(DRAFT.replace("@variant evolution-draft", "@variant power-up\n@monsters the-king gigazaur")).games
    assert [(v.line, v.code) for v in g.violations] == [(6, "kot-position")]


# ---------------------------------------------------------------- one-off evolutions (effects in the data)


@covers("giant-banana", "radioactive-waste", "alien-scourge", "bear-necessities")
@pytest.mark.parametrize("card,after", [
    ("giant-banana", (7, 3, 0)), ("radioactive-waste", (6, 3, 2)), ("alien-scourge", (5, 5, 0)),
    ("bear-necessities", (7, 2, 2))])
def test_gains(card: str, after: tuple[int, int, int]) -> None:
    st = owner_game(card)
    ann = st.monsters[0]
    ann.hp, ann.vp = 5, 3
    play(st, 0, card)
    assert (ann.hp, ann.vp, ann.energy) == after


@covers("primal-bellow")
def test_primal_bellow() -> None:
    st = owner_game("primal-bellow", players=3)
    st.monsters[1].vp, st.monsters[2].vp, st.monsters[0].vp = 5, 1, 4
    play(st, 0, "primal-bellow")
    assert [m.vp for m in st.monsters] == [4, 3, 0]


@covers("electro-scratch")
def test_electro_scratch() -> None:
    st = owner_game("electro-scratch", players=3)
    play(st, 0, "electro-scratch")
    assert [m.hp for m in st.monsters] == [10, 9, 9]


@covers("panda-monium")
def test_panda_monium() -> None:
    st = owner_game("panda-monium", players=3)
    play(st, 0, "panda-monium")
    assert [m.energy for m in st.monsters] == [6, 3, 3]


@covers("mega-purr")
def test_mega_purr() -> None:
    st = owner_game("mega-purr", players=4)
    bob, cid = st.monsters[1:3]
    bob.vp, cid.energy = 2, 3  # Dee has neither: it gives nothing
    refused("evo-play", lambda: play(st, 0, "mega-purr", "Bob", "vp"))  # Cid's choice is missing
    refused("evo-play", lambda: play(st, 0, "mega-purr", "Bob", "energy", "Cid", "energy"))  # Bob has no energy
    assert st.monsters[0].hand == ["mega-purr"]  # a refused play leaves the card in the hand
    play(st, 0, "mega-purr", "Bob", "vp", "Cid", "energy")
    assert [(m.vp, m.energy) for m in st.monsters] == [(1, 1), (1, 0), (0, 2), (0, 0)]


@covers("anger-batteries")
def test_anger_batteries() -> None:
    st = owner_game("anger-batteries", first=1)
    in_city(st, 0)
    roll(st, "s", "s", "s", "1", "2", "3")
    st.apply(Keep())
    st.apply(Decide(0, False))
    play(st, 0, "anger-batteries")
    assert (st.monsters[0].hp, st.monsters[0].energy) == (7, 3)


@covers("destructive-analysis")
def test_destructive_analysis() -> None:
    st = owner_game("destructive-analysis")
    refused("evo-play", lambda: play(st, 0, "destructive-analysis"))  # before rolling
    roll(st, "s", "s", "s", "1", "2", "e")
    play(st, 0, "destructive-analysis")
    assert st.monsters[0].energy == 3
    st.apply(Keep())
    assert st.monsters[0].energy == 4  # the energy die resolves as usual


# ---------------------------------------------------------------- permanent evolutions with data effects


@covers("i-am-the-king")
def test_i_am_the_king() -> None:
    st = owner_game("i-am-the-king")
    play(st, 0, "i-am-the-king")
    roll(st, *NEUTRAL)
    st.apply(EndTurn(0))
    assert st.monsters[0].vp == 2  # entering: 1 + 1
    roll(st, *NEUTRAL)
    st.apply(EndTurn(1))
    assert st.monsters[0].vp == 5  # starting the turn in Tokyo: 2 + 1


@covers("defender-of-tokyo")
def test_defender_of_tokyo() -> None:
    st = owner_game("defender-of-tokyo", players=3)
    play(st, 0, "defender-of-tokyo")
    st.monsters[1].vp, st.monsters[2].vp = 3, 0
    roll(st, *NEUTRAL)
    st.apply(EndTurn(0))
    for who in (1, 2):
        roll(st, *NEUTRAL)
        st.apply(EndTurn(who))
    assert [m.vp for m in st.monsters] == [3, 2, 0]


@covers("black-diamond")
def test_black_diamond() -> None:
    st = owner_game("black-diamond")
    play(st, 0, "black-diamond")
    roll(st, *NEUTRAL)
    st.apply(EndTurn(0))
    assert st.monsters[0].vp == 2  # entering: 1 + 1
    roll(st, "s", "1", "1", "2", "2", "3")
    st.apply(Decide(0, False))  # stays when allowed to yield: +1
    assert st.monsters[0].vp == 3


@covers("programmed-to-destroy")
def test_programmed_to_destroy() -> None:
    st = owner_game("programmed-to-destroy", players=3)
    play(st, 0, "programmed-to-destroy")
    in_city(st, 1)
    st.monsters[1].hp = 2
    roll(st, "s", "s", "1", "1", "2", "3")
    st.apply(Keep())
    assert st.monsters[1].eliminated
    assert (st.monsters[0].vp, st.monsters[0].energy) == (3 + 1, 2)  # and Ann enters the empty City


@covers("mouse-hunter", "meow-missile")
def test_mouse_hunter_and_meow_missile() -> None:
    st = game("cyber-kitty", "gigazaur")
    give(st, 0, "mouse-hunter")
    give(st, 0, "meow-missile")
    play(st, 0, "mouse-hunter")
    play(st, 0, "meow-missile")
    in_city(st, 1)
    roll(st, "1", "2", "3", "e", "e", "h")
    st.apply(Keep())
    assert (st.monsters[0].vp, st.monsters[1].hp) == (1, 9)


# ---------------------------------------------------------------- The King


@covers("simian-scamper")
def test_simian_scamper() -> None:
    st = owner_game("simian-scamper", first=1)
    in_city(st, 0)
    refused("evo-play", lambda: play(st, 0, "simian-scamper"))  # no smash has hurt Ann
    roll(st, "s", "s", "s", "1", "2", "3")
    play(st, 0, "simian-scamper")  # the dice resolve, Ann yields and gets her life back
    ann = st.monsters[0]
    assert (ann.hp, ann.location, st.monsters[1].location) == (10, "outside", "city")
    assert st.damage(0, 2, 1) == 0  # no loss of life for the rest of the turn


@covers("jungle-frenzy")
def test_jungle_frenzy() -> None:
    st = owner_game("jungle-frenzy")
    in_city(st, 1)
    roll(st, *NEUTRAL)
    refused("evo-play", lambda: play(st, 0, "jungle-frenzy"))  # no smash hurt Bob
    st = owner_game("jungle-frenzy")
    in_city(st, 1)
    roll(st, "s", "1", "1", "2", "2", "3")
    st.apply(Decide(1, False))
    play(st, 0, "jungle-frenzy")
    st.apply(EndTurn(0))
    assert st.active == 0


@covers("chest-thumping")
def test_chest_thumping() -> None:
    st = owner_game("chest-thumping")
    play(st, 0, "chest-thumping")
    in_city(st, 1)
    roll(st, "s", "1", "1", "2", "2", "3")
    refused("evo-play", lambda: use(st, 0, "chest-thumping", "Ann"))
    use(st, 0, "chest-thumping", "Bob")
    assert [m.location for m in st.monsters] == ["city", "outside"]


@covers("monkey-rush")
def test_monkey_rush() -> None:
    st = owner_game("monkey-rush", players=3, first=1)
    ann, bob = st.monsters[0], st.monsters[1]
    roll(st, "h", "h", "h", "1", "2", "3")
    st.apply(Evolve(1, ("heat-vision",), ("heat-vision",)))  # Bob's dice resolve: he enters Tokyo, then draws
    assert bob.location == "city" and bob.vp == 1
    refused("evo-play", lambda: play(st, 0, "monkey-rush", "Bob"))
    play(st, 0, "monkey-rush")  # Bob's entry is taken back: Ann takes Tokyo instead
    assert (ann.location, ann.vp, bob.location, bob.vp) == ("city", 1, "outside", 0)
    assert bob.hand == ["heat-vision"] and ann.hand == [] and ann.evo_discard["monkey-rush"] == 1
    st.apply(EndTurn(1))
    give(st, 0, "monkey-rush")
    roll(st, *NEUTRAL)
    st.apply(EndTurn(2))
    refused("evo-play", lambda: play(st, 0, "monkey-rush"))  # Ann's own turn, and too late anyway


@covers("alpha-male")
def test_alpha_male() -> None:
    st = owner_game("alpha-male")
    play(st, 0, "alpha-male")
    in_city(st, 1)
    roll(st, "s", "s", "s", "1", "2", "3")
    st.apply(Keep())
    assert st.monsters[0].vp == 1  # once, whatever the number of smashes


@covers("twas-beauty-killed-the-beast")
def test_twas_beauty_killed_the_beast() -> None:
    st = owner_game("twas-beauty-killed-the-beast")
    refused("evo-play", lambda: play(st, 0, "twas-beauty-killed-the-beast"))  # outside Tokyo
    roll(st, *NEUTRAL)
    st.apply(Keep())  # Ann enters Tokyo: 1 VP
    play(st, 0, "twas-beauty-killed-the-beast")
    st.apply(EndTurn(0))
    assert st.monsters[0].vp == 2
    roll(st, "s", "1", "1", "2", "2", "3")
    st.apply(Decide(0, True))
    ann = st.monsters[0]
    assert ann.vp == 0 and ann.evolutions == [] and ann.evo_discard["twas-beauty-killed-the-beast"] == 1


@covers("freeze-ray")
def test_freeze_ray_goes_to_the_wounded_monster_in_tokyo_and_takes_a_face_for_its_turn() -> None:
    st = owner_game("freeze-ray", players=3)  # Ann: Space Penguin; Bob: Gigazaur (in Tokyo); Cid
    play(st, 0, "freeze-ray")
    in_city(st, 1)
    refused("evo-play", lambda: use(st, 0, "freeze-ray", "Bob"))  # not before the dice wound Bob
    roll(st, "s", "s", "1", "2", "3", "h")
    st.apply(Keep())
    refused("evo-play", lambda: use(st, 0, "freeze-ray", "Cid"))  # Cid is outside Tokyo
    use(st, 0, "freeze-ray", "Bob")
    assert st.freeze_rays == {0: (1, "")}
    st.apply(Decide(1, False))  # Bob stays
    st.apply(EndTurn(0))
    refused("kot-unexpected", lambda: roll(st, "s", "s", "s", "1", "1", "1"))  # Ann names the face first
    refused("evo-play", lambda: use(st, 0, "freeze-ray", "x"))
    use(st, 0, "freeze-ray", "s")
    refused("evo-play", lambda: use(st, 0, "freeze-ray", "h"))  # once
    bob = st.monsters[1]
    hp, vp = st.monsters[0].hp, bob.vp
    roll(st, "s", "s", "s", "1", "1", "1")
    refused("evo-frozen-die", lambda: st.apply(Reroll(("smash",), ("1",))))  # frozen dice are not re-rolled
    st.apply(Reroll(("1",), ("2",)))
    st.apply(EndTurn(1))
    assert st.monsters[0].hp == hp and bob.vp == vp  # the smashes did nothing, 1-1 scores nothing
    assert st.freeze_rays == {}  # back to Ann at the end of Bob's turn
    roll(st, "s", "1", "1", "2", "2", "3")  # Cid: no face is frozen for him
    st.apply(Keep())
    assert st.monsters[1].hp == 7  # 2 from Ann's smashes, 1 from Cid's


@covers("freeze-ray")
def test_freeze_ray_needs_no_face_from_an_eliminated_owner_and_comes_back_after_the_turn() -> None:
    st = owner_game("freeze-ray", players=3)
    play(st, 0, "freeze-ray")
    in_city(st, 1)
    roll(st, "s", "s", "1", "2", "3", "h")
    st.apply(Keep())
    use(st, 0, "freeze-ray", "Bob")
    st.apply(Decide(1, False))
    st.monsters[0].hp = 0  # Ann is out before Bob's turn: nobody names a face
    st.monsters[0].eliminated = True
    st.apply(EndTurn(0))
    roll(st, "s", "1", "1", "2", "2", "3")  # Bob rolls with no face taken
    st.apply(EndTurn(1))
    assert st.freeze_rays == {}


@covers("encased-in-ice")
def test_encased_in_ice_keeps_a_die_in_every_other_roll_until_its_owner_plays_again() -> None:
    st = owner_game("encased-in-ice", players=3)
    play(st, 0, "encased-in-ice")
    ann = st.monsters[0]
    ann.energy = 1
    roll(st, "s", "1", "1", "2", "2", "3")
    refused("evo-play", lambda: use(st, 0, "encased-in-ice", "h"))  # no die shows a heart
    use(st, 0, "encased-in-ice", "s")  # ends the rolling: Ann's dice resolve
    assert ann.energy == 0 and st.ice_die == (0, "smash") and st.phase != "roll"
    st.apply(EndTurn(0))
    refused("evo-frozen-die", lambda: roll(st, "1", "1", "2", "2", "3", "h"))  # Bob's roll must show the frozen smash
    roll(st, "s", "1", "1", "2", "2", "3")
    refused("evo-frozen-die", lambda: st.apply(Reroll(("smash",), ("1",))))
    st.apply(Reroll(("2", "2"), ("smash", "1")))  # other dice are re-rolled as usual; a rolled smash is free
    st.apply(Reroll(("smash",), ("1",)))
    st.apply(EndTurn(1))
    roll(st, "s", "1", "1", "2", "2", "3")  # Cid too
    st.apply(EndTurn(2))
    assert st.ice_die is None  # Ann's turn: the ice melts
    roll(st, "1", "1", "2", "2", "3", "h")


@covers("encased-in-ice")
def test_encased_in_ice_costs_an_energy_and_works_once_a_turn() -> None:
    st = owner_game("encased-in-ice")
    play(st, 0, "encased-in-ice")
    roll(st, "s", "1", "1", "2", "2", "3")
    refused("kot-no-energy", lambda: use(st, 0, "encased-in-ice", "s"))
    st.apply(Keep())
    st.monsters[0].energy = 3
    refused("evo-play", lambda: use(st, 0, "encased-in-ice", "s"))  # the dice are resolved already


# ---------------------------------------------------------------- Gigazaur


@covers("detachable-tail")
def test_detachable_tail() -> None:
    st = owner_game("detachable-tail", first=1)
    in_city(st, 0)
    roll(st, "s", "s", "s", "1", "2", "3")
    play(st, 0, "detachable-tail")
    st.apply(Keep())
    assert st.monsters[0].hp == 10 and st.phase == "buy"


@covers("saurian-adaptability")
def test_saurian_adaptability() -> None:
    st = owner_game("saurian-adaptability")
    roll(st, "h", "h", "h", "1", "2", "3")
    refused("evo-play", lambda: play(st, 0, "saurian-adaptability", "s", "3"))  # no die shows a smash
    play(st, 0, "saurian-adaptability", "h", "3")
    assert sorted(st.dice) == ["1", "2", "3", "3", "3", "3"]
    st.apply(EndTurn(0))  # no hearts left: no evolution owed
    assert st.monsters[0].vp == 4 + 1


@covers("heat-vision")
def test_heat_vision() -> None:
    st = owner_game("heat-vision", first=1)
    play(st, 0, "heat-vision")
    in_city(st, 0)
    st.monsters[1].vp = 2
    roll(st, "s", "s", "1", "1", "2", "3")
    st.apply(Keep())
    assert (st.monsters[0].hp, st.monsters[1].vp) == (8, 1)
    st.damage(0, 1, 1)  # not a smash: no effect
    assert st.monsters[1].vp == 1


@covers("gamma-breath")
def test_gamma_breath() -> None:
    st = owner_game("gamma-breath")
    in_city(st, 1)
    roll(st, *NEUTRAL)
    play(st, 0, "gamma-breath", "1")  # played and used at once
    assert sorted(st.dice) == ["1", "2", "2", "3", "3", "smash"]
    refused("evo-play", lambda: use(st, 0, "gamma-breath", "2"))  # once per turn
    st.apply(Keep())
    assert st.monsters[1].hp == 9


@covers("tail-sweep")
def test_tail_sweep() -> None:
    st = owner_game("tail-sweep")
    play(st, 0, "tail-sweep")
    roll(st, "1", "1", "h", "s", "e", "3")
    refused("evo-play", lambda: use(st, 0, "tail-sweep", "h", "s"))  # only to a 1 or a 2
    use(st, 0, "tail-sweep", "h", "1")
    st.apply(Keep())
    assert st.monsters[0].vp == 1 + 1  # 1-1-1, then entering Tokyo


# ---------------------------------------------------------------- Meka Dragon


@covers("mecha-blast")
def test_mecha_blast() -> None:
    st = owner_game("mecha-blast")
    refused("evo-play", lambda: play(st, 0, "mecha-blast"))  # before the dice are rolled
    in_city(st, 1)
    roll(st, "s", "1", "1", "2", "2", "3")
    play(st, 0, "mecha-blast")
    st.apply(Keep())
    ann = st.monsters[0]
    assert st.monsters[1].hp == 7 and ann.evolutions == ["mecha-blast"]
    st.apply(EndTurn(0))
    assert ann.evolutions == [] and ann.evo_discard["mecha-blast"] == 1


@covers("tune-up")
def test_tune_up() -> None:
    st = owner_game("tune-up")
    st.monsters[0].hp = 5
    play(st, 0, "tune-up")
    assert (st.monsters[0].hp, st.monsters[0].energy, st.active, st.phase) == (9, 2, 1, "roll")
    st = owner_game("tune-up")
    in_city(st, 0)
    refused("evo-play", lambda: play(st, 0, "tune-up"))


@covers("breath-of-doom")
def test_breath_of_doom() -> None:
    st = owner_game("breath-of-doom", players=3)
    play(st, 0, "breath-of-doom")
    in_city(st, 1)
    roll(st, "s", "s", "1", "1", "2", "3")
    st.apply(Keep())
    assert [m.hp for m in st.monsters] == [10, 8, 9]
    st.damage(1, 1, 0)  # once per turn
    assert [m.hp for m in st.monsters] == [10, 7, 9]


@covers("claws-of-steel")
def test_claws_of_steel() -> None:
    st = owner_game("claws-of-steel")
    play(st, 0, "claws-of-steel")
    in_city(st, 1)
    roll(st, "s", "s", "s", "1", "2", "3")
    st.apply(Keep())
    assert st.monsters[1].hp == 6  # 3 + 1
    st = owner_game("claws-of-steel")
    play(st, 0, "claws-of-steel")
    in_city(st, 1)
    roll(st, "s", "s", "1", "1", "2", "3")
    st.apply(Keep())
    assert st.monsters[1].hp == 8
    st = game("meka-dragon", "gigazaur")
    give(st, 0, "claws-of-steel")
    give(st, 0, "mecha-blast")
    play(st, 0, "claws-of-steel")
    in_city(st, 1)
    roll(st, "s", "1", "1", "2", "2", "3")
    play(st, 0, "mecha-blast")
    st.apply(Keep())
    assert st.monsters[1].hp == 6  # 1 + 2 (Mecha Blast) reaches 3: + 1


@covers("target-acquired")
def test_target_acquired() -> None:
    st = owner_game("target-acquired", first=1)
    play(st, 0, "target-acquired")
    in_city(st, 0)
    refused("evo-play", lambda: use(st, 0, "target-acquired", "Bob"))  # Bob has not hurt Ann yet
    roll(st, "s", "1", "1", "2", "2", "3")
    st.apply(Decide(0, False))
    use(st, 0, "target-acquired", "Bob")
    st.apply(EndTurn(1))
    roll(st, "s", "1", "1", "2", "2", "3")
    st.apply(Keep())
    assert st.monsters[1].hp == 8


@covers("lightning-armor")
def test_lightning_armor() -> None:
    st = owner_game("lightning-armor", first=1)
    in_city(st, 0)
    play(st, 0, "lightning-armor")
    refused("evo-play", lambda: use(st, 0, "lightning-armor", "s"))  # no life lost yet
    roll(st, "s", "s", "s", "1", "2", "3")
    st.apply(Keep())
    refused("evo-play", lambda: use(st, 0, "lightning-armor", "s", "s"))  # 3 life lost: 3 dice
    refused("kot-bad-face", lambda: use(st, 0, "lightning-armor", "s", "x", "h"))
    use(st, 0, "lightning-armor", "s", "s", "h")
    assert (st.monsters[0].hp, st.monsters[1].hp) == (7, 8)
    refused("evo-play", lambda: use(st, 0, "lightning-armor", "s", "s", "h"))  # answered already


# ---------------------------------------------------------------- Alienoid


@covers("precision-field-support")
def test_precision_field_support() -> None:
    st = owner_game("precision-field-support")
    refused("evo-play", lambda: play(st, 0, "precision-field-support", "frenzy", "acid-attack"))  # costs 6
    refused("evo-play", lambda: play(st, 0, "precision-field-support", "alien-origin", "armor-plating"))
    refused("kot-card-not-in-deck", lambda: play(st, 0, "precision-field-support", "heal", "armor-plating"))
    play(st, 0, "precision-field-support", "frenzy", "energize", "armor-plating")
    ann = st.monsters[0]
    assert ann.cards == ["armor-plating"] and ann.energy == 0 and st.market == FILLER
    assert st.discards["frenzy"] == st.discards["energize"] == 1 and st.deck["armor-plating"] == 0


@covers("adapting-technology")
def test_adapting_technology() -> None:
    st = owner_game("adapting-technology")
    play(st, 0, "adapting-technology")
    refused("evo-play", lambda: use(st, 0, "adapting-technology", "energize", "frenzy", "skyscraper"))  # not rolled
    roll(st, *NEUTRAL)
    use(st, 0, "adapting-technology", "energize", "frenzy", "skyscraper")
    ann = st.monsters[0]
    assert st.market == ["energize", "frenzy", "skyscraper"] and ann.energy == 0
    assert ann.stored["adapting-technology"] == 2 and st.discards["heal"] == 1
    refused("kot-reveal-count", lambda: use(st, 0, "adapting-technology", "evacuation-orders"))
    assert st.market == ["energize", "frenzy", "skyscraper"] and ann.stored["adapting-technology"] == 2


@covers("funny-looking-but-dangerous")
def test_funny_looking_but_dangerous() -> None:
    st = owner_game("funny-looking-but-dangerous", players=3)
    play(st, 0, "funny-looking-but-dangerous")
    roll(st, "2", "2", "2", "1", "3", "e")
    st.apply(Keep())
    assert [m.hp for m in st.monsters] == [10, 9, 9]


@covers("exotic-arms")
def test_exotic_arms() -> None:
    st = owner_game("exotic-arms")
    play(st, 0, "exotic-arms")
    refused("kot-no-energy", lambda: use(st, 0, "exotic-arms"))
    st.monsters[0].energy = 2
    use(st, 0, "exotic-arms")
    in_city(st, 1)
    roll(st, "s", "s", "s", "1", "2", "3")
    st.apply(Keep())
    assert (st.monsters[0].energy, st.monsters[1].hp) == (2, 5)  # 3 smashes + 2
    st = owner_game("exotic-arms")
    play(st, 0, "exotic-arms")
    st.monsters[0].energy = 2
    use(st, 0, "exotic-arms")
    roll(st, "s", "1", "1", "2", "3", "e")
    st.apply(Keep())
    assert (st.monsters[0].energy, st.monsters[0].hp) == (1, 8)  # the bet is lost


@covers("mothership-support")
def test_mothership_support() -> None:
    st = owner_game("mothership-support")
    play(st, 0, "mothership-support")
    ann = st.monsters[0]
    ann.hp, ann.energy = 5, 2
    use(st, 0, "mothership-support")
    assert (ann.hp, ann.energy) == (6, 1)
    refused("evo-play", lambda: use(st, 0, "mothership-support"))  # once per turn
    st = owner_game("mothership-support")
    play(st, 0, "mothership-support")
    st.monsters[0].energy = 2
    refused("evo-play", lambda: use(st, 0, "mothership-support"))  # at full life


@covers("superior-alien-technology")
def test_superior_alien_technology() -> None:
    st = owner_game("superior-alien-technology")
    st.market[0] = "acid-attack"  # a Keep card costing 6
    st.deck["acid-attack"] -= 1
    st.deck["corner-store"] += 1
    ann = st.monsters[0]
    ann.energy = 3
    play(st, 0, "superior-alien-technology")
    refused("evo-play", lambda: use(st, 0, "superior-alien-technology", "buy", "acid-attack", ":", "energize"))
    roll(st, *NEUTRAL)
    refused("evo-play", lambda: use(st, 0, "superior-alien-technology", "buy", "heal", ":", "energize"))  # Discard
    use(st, 0, "superior-alien-technology", "buy", "acid-attack", ":", "energize")
    assert (ann.cards, ann.energy, ann.ufo) == (["acid-attack"], 0, ["acid-attack"])  # half of 6
    assert st.market == ["heal", "tank", "energize"]
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)
    st.apply(EndTurn(1))
    refused("kot-unexpected", lambda: roll(st, *NEUTRAL))  # the UFO die comes first
    refused("evo-play", lambda: use(st, 0, "superior-alien-technology", "s", "h"))  # one marked card: one die
    use(st, 0, "superior-alien-technology", "h")
    assert ann.cards == ["acid-attack"]
    refused("evo-play", lambda: use(st, 0, "superior-alien-technology", "s"))  # once per turn
    roll(st, *NEUTRAL)
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)
    st.apply(EndTurn(1))
    use(st, 0, "superior-alien-technology", "s")
    assert ann.cards == [] and ann.ufo == [] and st.discards["acid-attack"] == 1
    roll(st, *NEUTRAL)  # nothing marked any more


# ---------------------------------------------------------------- Space Penguin


@covers("cold-wave")
def test_cold_wave() -> None:
    st = owner_game("cold-wave")
    play(st, 0, "cold-wave")
    roll(st, *NEUTRAL)
    st.apply(EndTurn(0))
    refused("kot-dice-count", lambda: roll(st, *NEUTRAL))
    roll(st, "1", "1", "2", "2", "3")
    st.apply(EndTurn(1))
    roll(st, *NEUTRAL)  # Ann's own turn: six dice, and the card is discarded
    assert st.monsters[0].evolutions == [] and st.monsters[0].evo_discard["cold-wave"] == 1


@covers("deep-dive")
def test_deep_dive() -> None:
    st = owner_game("deep-dive")
    refused("evo-play", lambda: play(st, 0, "deep-dive", "frenzy", "acid-attack", "keep", "frenzy"))  # 3 cards
    refused("evo-play", lambda: play(st, 0, "deep-dive", "frenzy", "acid-attack", "energize", "keep", "tank"))
    play(st, 0, "deep-dive", "frenzy", "acid-attack", "energize", "keep", "acid-attack")
    ann = st.monsters[0]
    assert ann.cards == ["acid-attack"] and st.deck["frenzy"] == st.deck["energize"] == 1
    assert st.deck["acid-attack"] == 0 and ann.evo_discard["deep-dive"] == 1


@covers("miraculous-catch")
def test_miraculous_catch() -> None:
    st = owner_game("miraculous-catch")
    st.discards["armor-plating"] = 1
    play(st, 0, "miraculous-catch")
    ann = st.monsters[0]
    ann.energy = 3
    refused("evo-play", lambda: use(st, 0, "miraculous-catch", "armor-plating", "buy"))  # before Ann's roll
    roll(st, *NEUTRAL)
    refused("evo-play", lambda: use(st, 0, "miraculous-catch", "acid-attack", "buy"))  # not in the pile
    use(st, 0, "miraculous-catch", "armor-plating", "buy")
    assert ann.cards == ["armor-plating"] and ann.energy == 0 and st.discards["armor-plating"] == 0
    refused("evo-play", lambda: use(st, 0, "miraculous-catch", "armor-plating"))  # once per turn


@covers("blizzard")
def test_blizzard() -> None:
    st = owner_game("blizzard")
    in_city(st, 1)
    play(st, 0, "blizzard")
    roll(st, "s", "1", "1", "2", "2", "3")
    st.apply(Keep())
    refused("kot-yield-not-allowed", lambda: st.apply(Decide(1, True)))
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)
    refused("kot-too-many-rolls", lambda: st.apply(Reroll(("1",), ("2",))))  # Bob rolls once
    st.apply(EndTurn(1))
    roll(st, *NEUTRAL)
    st.apply(Reroll(("1",), ("2",)))  # Ann's turn: the card is gone
    assert st.monsters[0].evolutions == [] and st.monsters[0].evo_discard["blizzard"] == 1


@covers("icy-reflection")
def test_icy_reflection() -> None:
    st = owner_game("icy-reflection")
    bob = st.monsters[1]
    bob.evo_deck["gamma-breath"] -= 1
    bob.evolutions.append("gamma-breath")
    refused("evo-play", lambda: play(st, 0, "icy-reflection"))  # names the card copied
    refused("evo-play", lambda: play(st, 0, "icy-reflection", "black-diamond"))  # not in play
    refused("evo-play", lambda: play(st, 0, "icy-reflection", "giant-banana"))  # not a permanent evolution
    play(st, 0, "icy-reflection", "gamma-breath")
    ann = st.monsters[0]
    assert ann.icy == "gamma-breath" and "evolution:gamma-breath" in st.in_play(ann)
    roll(st, *NEUTRAL)
    use(st, 0, "gamma-breath", "1")  # the copy works as the card itself, once per turn
    assert st.dice.count("smash") == 1
    refused("evo-play", lambda: use(st, 0, "gamma-breath", "2"))
    bob.evolutions.remove("gamma-breath")  # the copied card leaves play: Icy Reflection goes too
    st.apply(EndTurn(0))
    assert ann.evolutions == [] and ann.icy is None and ann.evo_discard["icy-reflection"] == 1


@covers("icy-reflection")
def test_icy_reflection_copies_freeze_ray_and_its_turn_long_effect() -> None:
    """The copy freezes a face for the wounded monster's turn as the card does, and comes back after it."""
    st = owner_game("icy-reflection", players=3)  # Ann: Space Penguin; Bob: Gigazaur; Cid in Tokyo
    st.monsters[1].evolutions.append("freeze-ray")  # Bob's (an evolution draft, say)
    play(st, 0, "icy-reflection", "freeze-ray")
    in_city(st, 2)
    roll(st, "s", "s", "1", "2", "3", "h")
    st.apply(Keep())
    use(st, 0, "freeze-ray", "Cid")  # Ann's copy
    assert st.freeze_rays == {0: (2, "")}
    st.apply(Decide(2, False))
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)  # Bob's turn: nothing frozen for him
    st.apply(Keep())
    st.apply(EndTurn(1))
    use(st, 0, "freeze-ray", "s")  # Cid's turn: Ann names the face
    roll(st, "s", "s", "1", "1", "1", "2")
    refused("evo-frozen-die", lambda: st.apply(Reroll(("smash",), ("1",))))
    hp = st.monsters[0].hp
    st.apply(Keep())
    st.apply(EndTurn(2))
    assert st.monsters[0].hp == hp and st.freeze_rays == {}  # Cid's smashes did nothing; the ray is back


# ---------------------------------------------------------------- Cyber Kitty


@covers("nine-lives")
def test_nine_lives() -> None:
    st = owner_game("nine-lives", first=1)
    ann = st.monsters[0]
    in_city(st, 0)
    ann.hp, ann.vp, ann.energy = 2, 15, 4
    ann.cards.append("tank")
    play(st, 0, "nine-lives")
    roll(st, "s", "s", "s", "1", "2", "3")
    st.apply(Keep())
    assert not ann.eliminated
    assert (ann.hp, ann.vp, ann.energy, ann.location, ann.cards) == (9, 9, 0, "outside", [])
    assert st.monsters[1].location == "city" and ann.evo_discard["nine-lives"] == 1


@covers("feline-motor")
def test_feline_motor() -> None:
    st = owner_game("feline-motor", players=3, first=1)
    ann, bob, cid = st.monsters
    roll(st, *NEUTRAL)
    st.apply(Keep())
    play(st, 0, "feline-motor")  # in Bob's Enter Tokyo step: Ann enters instead
    assert (ann.location, ann.vp, bob.location, bob.vp) == ("city", 1, "outside", 0)
    assert ann.evolutions == ["feline-motor"]
    st.apply(EndTurn(1))
    roll(st, "s", "1", "1", "2", "2", "3")
    st.apply(Decide(0, True))
    refused("evo-play", lambda: use(st, 0, "feline-motor"))  # Ann was in Tokyo when Cid's turn began
    assert cid.location == "city" and ann.location == "outside"


@covers("cat-nip")
def test_cat_nip() -> None:
    st = owner_game("cat-nip")
    st.monsters[0].hp = 5
    in_city(st, 1)
    play(st, 0, "cat-nip")
    roll(st, "1", "1", "1", "e", "h", "s")
    refused("kot-too-many-rolls", lambda: st.apply(Reroll(("1",), ("2",))))
    refused("evo-play", lambda: use(st, 0, "cat-nip"))  # in front of Ann already
    st.apply(Keep())
    ann = st.monsters[0]
    assert (ann.vp, ann.energy, ann.hp, st.monsters[1].hp) == (2, 2, 7, 8)
    st.apply(EndTurn(0))
    assert ann.evolutions == [] and ann.evo_discard["cat-nip"] == 1


@covers("play-with-your-food")
def test_play_with_your_food() -> None:
    st = owner_game("play-with-your-food")
    play(st, 0, "play-with-your-food")
    in_city(st, 1)
    bob = st.monsters[1]
    bob.vp, bob.energy = 3, 3
    roll(st, "s", "s", "s", "1", "2", "3")
    use(st, 0, "play-with-your-food", "Bob")
    st.apply(Keep())
    assert (bob.hp, bob.vp, bob.energy) == (9, 2, 2)
    assert (st.monsters[0].vp, st.monsters[0].energy) == (1, 1)


# ---------------------------------------------------------------- Pandakai


@covers("eats-shoots-and-leaves")
def test_eats_shoots_and_leaves() -> None:
    st = owner_game("eats-shoots-and-leaves", players=3)
    roll(st, *NEUTRAL)
    st.apply(Keep())  # Ann enters Tokyo this turn
    play(st, 0, "eats-shoots-and-leaves")
    assert [m.hp for m in st.monsters] == [10, 8, 8]
    assert (st.monsters[0].energy, st.monsters[0].location, st.occupant("city")) == (1, "outside", None)
    st = owner_game("eats-shoots-and-leaves")
    roll(st, *NEUTRAL)
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)
    st.apply(EndTurn(1))
    roll(st, *NEUTRAL)
    refused("evo-play", lambda: play(st, 0, "eats-shoots-and-leaves"))  # in Tokyo since the last turn


@covers("bamboozle")
def test_bamboozle() -> None:
    st = owner_game("bamboozle", first=1)
    bob = st.monsters[1]
    bob.energy = 6
    refused("evo-play", lambda: play(st, 0, "bamboozle", "heal", "tank", ":", "frenzy"))  # Bob has not rolled
    roll(st, *NEUTRAL)
    refused("evo-play", lambda: play(st, 0, "bamboozle", "heal"))  # Bob can afford another card: name it
    refused("evo-play", lambda: play(st, 0, "bamboozle", "heal", "heal", ":", "frenzy"))
    play(st, 0, "bamboozle", "heal", "tank", ":", "frenzy")
    assert (bob.energy, st.market) == (2, ["corner-store", "heal", "frenzy"]) and st.discards["tank"] == 1
    bob.energy = 3
    refused("kot-unexpected", lambda: st.apply(Buy(1, "heal", "energize")))  # not this turn
    st.apply(Buy(1, "corner-store", "energize"))
    assert st.monsters[0].evo_discard["bamboozle"] == 1


@covers("panda-express")
def test_panda_express() -> None:
    st = owner_game("panda-express")
    play(st, 0, "panda-express")
    roll(st, "1", "2", "3", "e", "h", "s")
    st.apply(EndTurn(0))
    assert st.active == 0  # another turn, started in Tokyo
    assert st.monsters[0].vp == 2 + 1 + 2


@covers("bamboo-supply")
def test_bamboo_supply() -> None:
    st = owner_game("bamboo-supply")
    play(st, 0, "bamboo-supply", "put")
    refused("evo-play", lambda: use(st, 0, "bamboo-supply", "take"))  # once per turn
    roll(st, *NEUTRAL)
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)
    st.apply(EndTurn(1))
    use(st, 0, "bamboo-supply", "put")
    assert st.monsters[0].stored["bamboo-supply"] == 2
    roll(st, *NEUTRAL)
    refused("evo-play", lambda: use(st, 0, "bamboo-supply", "take"))  # after the roll
    st.apply(EndTurn(0))
    roll(st, *NEUTRAL)
    st.apply(EndTurn(1))
    energy = st.monsters[0].energy
    use(st, 0, "bamboo-supply", "take")
    assert st.monsters[0].energy == energy + 2 and "bamboo-supply" not in st.monsters[0].stored


@covers("pandarwinism-survival-of-the-cutest")
def test_pandarwinism() -> None:
    st = owner_game("pandarwinism-survival-of-the-cutest")
    play(st, 0, "pandarwinism-survival-of-the-cutest")
    roll(st, "h", "h", "h", "h", "h", "1")
    st.apply(Keep())
    assert st.monsters[0].vp == 3 + 1


@covers("yin-and-yang")
def test_yin_and_yang() -> None:
    st = owner_game("yin-and-yang")
    play(st, 0, "yin-and-yang")
    roll(st, "1", "1", "1", "s", "s", "h")
    use(st, 0, "yin-and-yang")
    assert st.dice == ["3", "3", "3", "energy", "energy", "2"]


# ---------------------------------------------------------------- coverage


def test_every_evolution_has_a_test_and_a_status() -> None:
    assert set(MONSTER) == COVERED
    for c in RS.evolutions:
        supported = c.hook is None or c.hook in HOOKS
        assert supported != (c.id in UNSUPPORTED), c.id
    assert set(EVOLUTION_HOOKS) <= {c.hook for c in RS.evolutions}


def test_the_report_shows_the_frozen_dice() -> None:
    (g,) = run(FREEZE_RAY_LOG.split("Bob roll")[0]).games
    assert g.final is not None and g.final["freeze_rays"] == [{"owner": "Ann", "holder": "Bob", "face": "smash"}]
    (g,) = run(ENCASED_LOG.split("Bob roll")[0]).games
    assert g.final is not None and g.final["encased_die"] == {"owner": "Ann", "face": "heart"}
    (g,) = run(FREEZE_RAY_LOG).games
    assert g.final is not None and g.final["freeze_rays"] == [] and g.final["encased_die"] is None


def test_the_game_ends_while_a_freeze_ray_is_lent() -> None:
    """Bob holds Ann's Freeze Ray and reaches 20 VP by starting in Tokyo: his turn is played out with the
    face frozen (the game ends at the end of the turn, kot.end.timing), and he wins."""
    text = FREEZE_RAY_LOG.replace("Bob is place=city", "Bob is place=city vp=18").split("expect Ann hp 10")[0]
    (g,) = run(text + "expect winner Bob\nexpect Bob vp 21\nexpect Ann hp 10\n").games
    assert g.valid, [str(x) for x in (*g.errors, *g.violations)]
    assert g.final is not None and g.final["game_over"]["over"] and g.final["freeze_rays"] == []


def test_mimic_aimed_at_an_evolution_is_refused_by_the_rule() -> None:
    """Issue 25, finding 12: `use mimic EVOLUTION` crashed the checker (KeyError) and lost the file's games."""
    log = ("@game kot\n@variant power-up\n@players Ann Bob Cid\n@monsters the-king gigazaur cyber-kitty\n"
           "Ann is energy=20 cards=mimic\nBob is evolutions=radioactive-waste\nmarket heal tank energize\n"
           "turn Ann buy\nAnn use mimic radioactive-waste\n")
    (game,) = check_text("m.log", log).games
    assert [(v.line, v.code, v.rule) for v in game.violations] == [(9, "evo-not-a-card", "kot.evolution.decks")]
    assert not game.errors
