"""King of Tokyo game logs checked: the replay of a game's events (read by kbgrules.king_of_tokyo.parse) on
the game state, with its checkpoints, and ``check_king_of_tokyo`` (docs/log-format.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kbgrules.core.logfile import Event, GameText, LogSyntaxError
from kbgrules.core.replay import parse_events, players_ok, stopped_note
from kbgrules.core.report import GameReport
from kbgrules.core.words import counted
from kbgrules.errors import Diagnostic, IllegalMoveError, KbgError
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
from kbgrules.king_of_tokyo.moves import (
    Action,
    Buy,
    ChanceNeeded,
    Decide,
    EndTurn,
    Evolve,
    Play,
    Use,
    violation,
)
from kbgrules.king_of_tokyo.parse import GAME_CHECKS, KEYWORDS, Item, Parsed, Parser, as_parsed, slug
from kbgrules.king_of_tokyo.positions import read_position
from kbgrules.king_of_tokyo.report import final_json, next_json, pending_json
from kbgrules.king_of_tokyo.result import king_of_tokyo_result
from kbgrules.king_of_tokyo.state import KingOfTokyoState


class _PlayAgain(Exception):
    """The replay gave Camouflage dice first and they do not fit: the game is replayed the slow way."""


def _col(p: Parsed, exc: IllegalMoveError) -> int:
    if exc.code in ("kot-not-in-market", "kot-no-energy") and p.card_at >= 0:
        return p.event.tokens[p.card_at].col
    return p.event.col


class Replay:
    """One game's events replayed on a ``KingOfTokyoState``: violations, checkpoints and the timeline go to
    ``report``."""

    def __init__(self, file: str, rs: KingOfTokyoRuleset, players: tuple[str, ...], report: GameReport,
                 monsters: tuple[str, ...] = (), sides: str = "") -> None:
        self.file = file
        self.rs = rs
        self.players = players
        self.report = report
        self.monsters = monsters
        self.sides = sides
        self.state: KingOfTokyoState | None = None
        self.setup_lines: list[Parsed] = []
        self.must_end = False  # a position at `turn NAME end`: NAME's `end` comes first
        # for run(), dice_after(): give the Camouflage dice of the lines after an action before applying it,
        # with no copy of the state to undo (when they do not fit, _PlayAgain: the slow way, None, each
        # action undone and applied again with each line's dice, gives the report)
        self.fed: dict[int, list[int] | None] | None = None

    def check_actor(self, st: KingOfTokyoState, act: Action, actor: int | None) -> None:
        """Whether the monster a line names (``actor``) may make ``act`` now, before the state applies it."""
        if self.must_end and not isinstance(act, (Decide, Evolve)):
            if not (isinstance(act, EndTurn) and act.monster == st.active):
                raise violation(self.rs, "kot-unexpected", expected=f"{st.me.name}'s end (the position is "
                                "at the end of the turn)", got="another event")
            self.must_end = False
        opportunist = isinstance(act, Buy) and "opportunist" in st.in_play(st.monsters[act.monster])
        if not isinstance(act, (Decide, Use, Evolve, Play)) and not opportunist and actor is not None \
                and actor != st.active and st.over is None:
            raise violation(self.rs, "kot-wrong-monster", expected=st.me.name, actor=self.players[actor])

    def new_state(self, market: Sequence[str], first: int, begin: bool = True) -> KingOfTokyoState:
        st = KingOfTokyoState(self.rs, self.players, market, first, begin=False, monsters=self.monsters)
        if self.sides:
            st.tile_sides = self.sides
        self.prepare(st)
        if begin:
            st.start_turn()
        return st

    def prepare(self, st: KingOfTokyoState) -> None:
        """Setup lines other than the market: tile sides (mixed), drafted evolution decks."""
        rs = self.rs
        ev = rs.evolution
        if ev is not None and ev.draft:
            drafted = {p.monster for p in self.setup_lines if p.what == "evolutions"}
            missing = [self.players[i] for i in range(len(self.players)) if i not in drafted]
            if missing:
                raise violation(rs, "kot-position", at="first", monster=missing[0],
                                problem=f"the evolution draft gives every monster a deck: write "
                                        f"'{missing[0]} evolutions CARD ...' before the first turn")
        for p in self.setup_lines:
            if p.what == "tiles":
                if st.tile_sides != "mixed":
                    raise violation(rs, "kot-position", at="tiles",
                                    problem="a 'tiles' line lists the sides that are up only with @tiles mixed")
                for tid in p.values:
                    t = st.cards[f"tile:{tid}"]
                    red = tid if t.side == "red" or not t.back else t.back
                    if red in st.tile_faces:
                        raise violation(rs, "kot-position", at="tiles",
                                        problem=f"each tile shows one side: {t.name}'s tile is listed twice")
                    st.tile_faces[red] = tid
            elif p.what == "evolutions":
                assert p.monster is not None
                ev = rs.evolution
                if ev is None or not ev.draft:
                    raise violation(rs, "kot-position", at="evolutions", monster=self.players[p.monster],
                                    problem="evolution decks are listed only with the evolution-draft variant")
                from collections import Counter

                m = st.monsters[p.monster]
                m.evo_deck = Counter(p.values)
                used = Counter(c for q in self.setup_lines if q.what == "evolutions" for c in q.values)
                for c, n in used.items():
                    copies = st.cards[f"evolution:{c}"].copies
                    if n > copies:
                        raise violation(rs, "kot-position", at="evolutions", monster=m.name,
                                        problem=f"{st.cards['evolution:' + c].name} is drafted {n} times; "
                                                f"the game has {copies}")

    def drafting(self) -> bool:
        """Whether the evolution draft is in play and a monster's drafted deck is not stated yet."""
        ev = self.rs.evolution
        return ev is not None and ev.draft and len(
            {p.monster for p in self.setup_lines if p.what == "evolutions"}) < len(self.players)

    def begin(self) -> KingOfTokyoState:
        """The state play starts from, as ``run`` makes it from the set-up lines (``setup_lines``)."""
        market: list[str] = []
        first = 0
        states: list[Parsed] = []
        phase: str = "start"
        dice: Sequence[str] = ()
        extra: dict[str, Any] = {}
        for p in self.setup_lines:
            if p.what == "market":
                market = list(p.values)
            elif p.what in ("monster", "deck", "discard"):
                states.append(p)
            elif p.what == "first":
                assert p.monster is not None
                first = p.monster
                phase, dice, extra = p.values
        self.state = self.start(market, first, states, phase, dice, extra)
        self.must_end = phase == "end"
        return self.state

    def fail(self, p: Parsed, exc: IllegalMoveError) -> None:
        self.report.stop(p.event.line, _col(p, exc), p.event.col, exc.code, exc.rule, exc.message)

    def apply_dice_first(self, st: KingOfTokyoState, act: Action, parsed: list[Item], lines: list[int],
                         consumed: set[int]) -> None:
        """Apply ``act`` with the dice of the Camouflage lines right after it (``lines``, one monster's),
        given first; if it needs other dice or leaves some, _PlayAgain."""
        who = None
        for j in lines:
            q = parsed[j]
            assert isinstance(q, Parsed) and q.monster is not None
            who = q.monster
            st.camouflage_roll(who, q.values)
            consumed.add(j)
        assert who is not None
        try:
            st.apply(act, chance_undo=False)
        except ChanceNeeded:
            raise _PlayAgain from None
        if st.camouflage.get(who):
            raise _PlayAgain

    def apply_with_chance(self, st: KingOfTokyoState, act: Action, parsed: list[Item], k: int,
                          consumed: set[int]) -> None:
        """Apply ``act``; Camouflage dice it needs come from the lines right after it."""
        nxt = k + 1
        while True:
            try:
                st.apply(act)
                return
            except ChanceNeeded as need:
                while nxt in consumed:
                    nxt += 1
                q = parsed[nxt] if nxt < len(parsed) else None
                if not isinstance(q, Parsed) or q.kind != "camouflage" or q.monster != need.monster:
                    n = need.count
                    raise violation(self.rs, "kot-camouflage",
                                    problem=f"{self.players[need.monster]} holds Camouflage and loses {n} life here: "
                                            f"the next line must give {n} {'die' if n == 1 else 'dice'} "
                                            f"({self.players[need.monster]} camouflage F...)") from None
                st.camouflage_roll(need.monster, q.values)
                consumed.add(nxt)

    def culprit(self, exc: IllegalMoveError, states: list[Parsed], fallback: Parsed) -> Parsed:
        """The position statement an impossible position comes from."""
        who = None if exc.params.get("at") == "first" else exc.params.get("monster")
        for p in states:
            if who is not None and p.monster is not None and self.players[p.monster] == who:
                return p
        at = "market" if exc.code == "kot-reveal-count" else exc.params.get("at")
        for p in self.setup_lines:
            if p.what == at:
                return p
        return states[-1] if states else fallback

    def turn_marker(self, st: KingOfTokyoState, p: Parsed) -> None:
        """``turn NAME`` in the middle of a game: NAME's turn must be starting."""
        assert p.monster is not None
        want = p.values[0] if p.values else "start"
        if p.event.tokens[0].text != "turn":
            raise LogSyntaxError(f"'{p.event.tokens[0].text}' belongs before the first turn", p.event.col)
        if want not in ("start", "buy"):
            raise LogSyntaxError(f"'turn NAME {want}' states a position: it belongs before the first turn event "
                                 "(in the middle of a game, only turn NAME [start|buy] checks where the turn is)",
                                 p.event.tokens[2].col)
        at_start = st.phase == "roll" and not st.rolls
        at_buy = st.phase == "buy"
        if st.active != p.monster or (want == "start" and not at_start) or (want == "buy" and not at_buy):
            where = "about to roll" if at_start else "buying" if at_buy else "in the middle of its turn"
            raise violation(self.rs, "kot-checkpoint", what=f"turn {self.players[p.monster]} {want}",
                            stated=f"{self.players[p.monster]} {'starting' if want == 'start' else 'buying'}",
                            actual=f"{st.me.name} {where}")

    def start(self, market: list[str], first: int, states: list[Parsed], phase: str = "start",
              dice: Sequence[str] = (), extra: dict[str, Any] | None = None) -> KingOfTokyoState:
        """The state at the start of play: the setup, or the stated position (``NAME is ...`` lines) at the
        moment of the turn that ``turn NAME PHASE [DICE] [...]`` names (docs/log-format.md)."""
        extra = extra or {}
        deck = [c for p in states if p.what == "deck" for c in p.values]
        discard = [c for p in states if p.what == "discard" for c in p.values if not c.startswith("tile:")]
        gone_tiles = [c[5:] for p in states if p.what == "discard" for c in p.values if c.startswith("tile:")]
        states = [p for p in states if p.what == "monster"]
        if not states and not deck and not discard and not gone_tiles and phase == "start":
            if market and len(market) != self.rs.market_size:
                raise violation(self.rs, "kot-reveal-count", expected=self.rs.market_size, got=len(market))
            return self.new_state(market, first)
        return read_position(self.new_state((), first, begin=False), market, states, deck, discard, gone_tiles,
                             phase, dice, extra)

    def checkpoint(self, st: KingOfTokyoState, p: Parsed) -> None:
        if p.what == "winner":
            named = sorted(self.players[i] for i in p.values)
            out = st.outcome()
            if not out.over:
                raise violation(self.rs, "kot-checkpoint", what="the winners", stated=", ".join(named) or "none",
                                actual="no winner: the game is not over")
            if named != sorted(out.winners):
                raise violation(self.rs, "kot-checkpoint", what="the winners", stated=", ".join(named) or "none",
                                actual=", ".join(sorted(out.winners)) or "none")
            return
        if p.what in GAME_CHECKS:
            self.game_checkpoint(st, p)
            return
        if p.what in ("city", "bay"):
            holder = st.occupant(p.what)
            if holder != p.monster:
                def nm(i: int | None) -> str:
                    return "nobody" if i is None else self.players[i]
                raise violation(self.rs, "kot-checkpoint", what=f"Tokyo {p.what.title()}", stated=nm(p.monster),
                                actual=nm(holder))
            return
        assert p.monster is not None
        m = st.monsters[p.monster]
        if p.what in ("eliminated", "alive"):
            if m.eliminated != (p.what == "eliminated"):
                raise violation(self.rs, "kot-checkpoint", what=f"{m.name}'s state", stated=p.what,
                                actual="eliminated" if m.eliminated else "alive")
            return
        if p.what in ("tiles", "evolutions"):
            have = sorted(m.tiles if p.what == "tiles" else m.evolutions)
            if have != p.values:
                raise violation(self.rs, "kot-checkpoint", what=f"{m.name}'s {p.what}",
                                stated=", ".join(p.values) or "none", actual=", ".join(have) or "none")
            return
        if p.what == "cards":
            if sorted(m.cards) != p.values:
                raise violation(self.rs, "kot-checkpoint", what=f"{m.name}'s cards",
                                stated=", ".join(p.values) or "none", actual=", ".join(sorted(m.cards)) or "none")
            return
        actual = {"hp": m.hp, "vp": m.vp, "energy": m.energy, "location": m.location, "max-life": st.max_hp(m),
                  "poison": m.tokens["poison"], "shrink": m.tokens["shrink"], "smoke": m.tokens["smoke"],
                  "wickedness": m.wickedness, "dicetokens": m.dice_tokens}[p.what]
        if actual != p.values[0]:
            raise violation(self.rs, "kot-checkpoint", what=f"{m.name}'s {p.what}", stated=p.values[0],
                            actual=actual)

    def game_checkpoint(self, st: KingOfTokyoState, p: Parsed) -> None:
        def cards(ids: list[str]) -> str:
            return ", ".join(ids) or "none"

        if p.what == "market":
            stated, actual = cards(p.values), cards(sorted(st.market))
        elif p.what == "discard":
            stated, actual = cards(p.values), cards(sorted(c for c, n in st.discards.items() for _ in range(n)))
        elif p.what == "deck":
            stated, actual = str(p.values[0]), str(sum(st.deck.values()))
        elif p.what == "pending":
            waiting = sorted({entry["monster"] for entry in pending_json(st)})
            stated, actual = ", ".join(self.players[i] for i in p.values) or "none", ", ".join(waiting) or "none"
        else:  # dice: the coming roll's
            nxt = next_json(st)
            stated = str(p.values[0])
            actual = "no roll comes next" if nxt is None or nxt["dice"] is None else str(nxt["dice"])
        if stated != actual:
            what = {"market": "the market", "discard": "the discard pile", "deck": "the cards left in the deck",
                    "pending": "who must still decide", "dice": "the dice of the coming roll"}[p.what]
            raise violation(self.rs, "kot-checkpoint", what=what, stated=stated, actual=actual)

    def run(self, parsed: list[Item], stop_line: int | None) -> None:
        market: list[str] = []
        first = 0
        states: list[Parsed] = []
        phase: str = "start"
        dice: Sequence[str] = ()
        extra: dict[str, Any] = {}
        consumed: set[int] = set()
        fed = self.fed or {}
        undo = self.fed is None
        upto = len(parsed)
        if stop_line is not None:
            upto = next((k for k, p in enumerate(parsed)
                         if (p[0] if isinstance(p, tuple) else p.event).line >= stop_line), upto)
        live = self.state if not self.must_end else None  # once set, most steps go straight to it
        for k, item in enumerate(parsed[:upto] if upto < len(parsed) else parsed):
            if consumed and k in consumed:
                continue
            if live is None and self.state is not None and not self.must_end:
                live = self.state  # neither changes again in this replay
            try:
                if live is not None and isinstance(item, tuple) and item[2] == live.active and not (fed and k in fed):
                    # a monster's action on its own turn: most lines
                    try:
                        live.apply(item[1], True, undo)  # positional: the quicker call
                    except ChanceNeeded:  # the state is unchanged: applied again with the Camouflage dice
                        if not undo:
                            raise _PlayAgain from None  # the state is half-changed: no dice line follows
                        self.apply_with_chance(live, item[1], parsed, k, consumed)
                    continue
                st = self.state
                p = as_parsed(item) if isinstance(item, tuple) else item
                kind = p.kind
                if kind != "action" or st is None or self.must_end or p.monster != st.active:
                    if kind == "camouflage":
                        raise violation(self.rs, "kot-camouflage",
                                        problem=f"no Camouflage dice are needed here: {self.players[p.monster or 0]} "
                                                "has just lost no life that Camouflage could cancel")
                    if kind == "setup":
                        if self.state is not None and p.what == "first":
                            self.turn_marker(self.state, p)
                            continue
                        if self.state is not None:
                            raise LogSyntaxError(f"'{p.event.tokens[0].text}' belongs before the first turn",
                                                 p.event.col)
                        self.setup_lines.append(p)
                        if p.what == "market":
                            market = list(p.values)
                        elif p.what in ("tiles", "evolutions"):
                            pass
                        elif p.what in ("monster", "deck", "discard"):
                            states.append(p)
                        else:
                            assert p.monster is not None
                            first = p.monster
                            phase, dice, extra = p.values
                        continue
                    if self.state is None:
                        try:
                            self.state = self.start(market, first, states, phase, dice, extra)
                        except IllegalMoveError as exc:
                            self.fail(self.culprit(exc, states, p), exc)
                            self.state = KingOfTokyoState(self.rs, self.players, (), first)
                            return
                        self.must_end = phase == "end"
                    st = self.state
                    if kind == "expect":
                        self.checkpoint(st, p)
                        continue
                    assert p.action is not None
                    if self.must_end or p.monster != st.active:  # else check_actor has nothing to check
                        self.check_actor(st, p.action, p.monster)
                act = p.action
                assert act is not None and st is not None
                lines = fed.get(k, ()) if fed else ()
                try:
                    if lines:
                        self.apply_dice_first(st, act, parsed, lines, consumed)
                    else:  # None: Camouflage lines of several monsters follow, given as asked (undone between)
                        st.apply(act, chance_undo=undo or lines is None)
                except ChanceNeeded:  # the state is unchanged: applied again with the Camouflage dice
                    if not undo and lines is not None:
                        raise _PlayAgain from None  # the state is half-changed: no dice line follows
                    self.apply_with_chance(st, act, parsed, k, consumed)
            except IllegalMoveError as exc:
                self.fail(as_parsed(item) if isinstance(item, tuple) else item, exc)
                return
            except LogSyntaxError as exc:
                ev = item[0] if isinstance(item, tuple) else item.event
                self.report.errors.append(Diagnostic(self.file, ev.line, exc.col, exc.code, exc.message))
                return
            except KbgError as exc:  # a card the checker cannot replay yet
                ev = item[0] if isinstance(item, tuple) else item.event
                self.report.errors.append(Diagnostic(self.file, ev.line, ev.col, exc.code, exc.message))
                self.report.notes.append(Diagnostic(self.file, ev.line, ev.col, "stopped",
                                                    f"game {self.report.index}: checking stopped at this line",
                                                    "note"))
                return
        if self.state is None:
            if self.drafting():  # the log ends in the draft's set-up: nothing is played yet, so no state yet
                return
            try:
                self.state = self.start(market, first, states, phase, dice, extra)
            except IllegalMoveError as exc:
                head = parsed[0]
                fallback = as_parsed(head) if isinstance(head, tuple) else head
                self.fail(self.culprit(exc, states, states[-1] if states else fallback), exc)
                self.state = KingOfTokyoState(self.rs, self.players, (), first)

def dice_after(parsed: list[Item]) -> dict[int, list[int] | None]:
    """The Camouflage lines right after each action followed by some (None when they name several
    monsters: that action keeps its undo)."""
    out: dict[int, list[int] | None] = {}
    kinds = ["action" if isinstance(x, tuple) else x.kind for x in parsed]
    whose = [None if isinstance(x, tuple) else x.monster for x in parsed]
    k = 0
    while k < len(parsed):
        j = k + 1
        while j < len(parsed) and kinds[j] == "camouflage":
            j += 1
        if j > k + 1 and kinds[k] == "action":
            out[k] = list(range(k + 1, j)) if len(set(whose[k + 1:j])) == 1 else None
        k = j
    return out


def timeline(st: KingOfTokyoState) -> list[dict[str, Any]]:
    """``kbg show``'s turn-by-turn standings of a replayed game."""
    dark = st.rs.wickedness is not None
    return [{"turn": n + 1, "monster": st.players[who],
             "monsters": [{"name": name, "hp": hp, "vp": vp, "energy": e, "location": loc, "eliminated": out,
                           **({"wickedness": w} if dark else {}), "cards": list(cards)}
                          for name, (hp, vp, e, loc, out, w, cards) in zip(st.players, rows, strict=True)]}
            for n, (who, rows) in enumerate(st.turn_ends)]


def check_king_of_tokyo(file: str, g: GameText, rs: KingOfTokyoRuleset, report: GameReport) \
        -> KingOfTokyoState | None:
    """Replay one King of Tokyo game into ``report``; the state where the replay stopped (None when its
    headers are wrong)."""
    players = report.players
    if not players_ok(file, g, report, KEYWORDS):
        return None
    monsters: tuple[str, ...] = ()
    mtag = g.tag("monsters")
    if mtag is not None:
        names: list[str] = [v.text for v in mtag.values]
        known = {slug(c.monster) for c in rs.evolutions} | {slug(x) for x in rs.monsters}
        unknown = next((v for v in mtag.values if slug(v.text) not in known), None)
        if len(names) != len(players) or unknown is not None:
            why = (f"{unknown.text!r} is not a monster of this edition; known: {', '.join(sorted(known))}"
                   if unknown is not None
                   else f"@monsters names {counted(len(names), 'monster')} for {counted(len(players), 'player')}")
            col = unknown.col if unknown is not None else mtag.values[0].col
            report.errors.append(Diagnostic(file, mtag.line, col, "log-header", why))
            return None
        monsters = tuple(slug(x) for x in names)
    elif rs.evolution is not None and not rs.evolution.draft and rs.evolutions:
        tag = g.tag("players")
        assert tag is not None
        report.errors.append(Diagnostic(file, tag.line, 1, "log-header",
                                        "evolutions are in play: say each player's monster with @monsters "
                                        "(in seat order, e.g. @monsters the-king gigazaur)"))
        return None
    sides = ""
    stag = g.tag("tiles")
    if stag is not None:
        side = stag.values[0].text
        if rs.wickedness is None or side not in rs.wickedness.sides or len(stag.values) != 1:
            why = ("@tiles is for the Dark Edition (@edition dark)" if rs.wickedness is None
                   else f"@tiles is one of {', '.join(rs.wickedness.sides)}")
            report.errors.append(Diagnostic(file, stag.line, stag.values[0].col, "log-header", why))
            return None
        sides = side
    parser = Parser(rs, players)

    def parse_blocks(ev: Event) -> Item:
        if ev.block:
            report.errors.append(Diagnostic(file, ev.block[0][0], 1, "log-syntax",
                                            "King of Tokyo events have no indented lines"))
        return parser.read(ev)

    parse: Callable[[Event], Item] = parser.read  # one call less an event where no event has indented lines
    for ev in g.events:
        if ev.block:
            parse = parse_blocks
            break
    replay = Replay(file, rs, players, report, monsters, sides)
    parsed, stop = parse_events(file, g, report, parse)
    replay.fed = dice_after(parsed) if parser.camouflage_lines else {}
    try:
        replay.run(parsed, stop)
    except _PlayAgain:  # nothing reported yet: the replay stops at the first problem
        replay = Replay(file, rs, players, report, monsters, sides)
        replay.run(parsed, stop)
    stopped_note(file, report, stop)
    if replay.state is not None:
        report.result = king_of_tokyo_result(replay.state, final_json(replay.state))
        report.timeline_builder = partial(timeline, replay.state)  # the state only: no cycle through the report
    return replay.state
