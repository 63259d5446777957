"""King of Tokyo game logs checked: the replay of a game's events (read by kbgrules.king_of_tokyo.parse) on
the game state, with its checkpoints, and ``check_king_of_tokyo`` (docs/log-format.md)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from kbgrules.core.logfile import Event, GameText, LogSyntaxError
from kbgrules.core.replay import players_ok, replay_events
from kbgrules.core.report import GameReport
from kbgrules.errors import Diagnostic, IllegalMoveError, KbgError
from kbgrules.king_of_tokyo.hooks import HOOKS
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
from kbgrules.king_of_tokyo.monster import Monster
from kbgrules.king_of_tokyo.moves import (
    Action,
    Buy,
    ChanceNeeded,
    Decide,
    EndTurn,
    Evolve,
    Keep,
    Play,
    Roll,
    Use,
    violation,
)
from kbgrules.king_of_tokyo.parse import GAME_CHECKS, KEYWORDS, Parsed, Parser, slug
from kbgrules.king_of_tokyo.positions import holds
from kbgrules.king_of_tokyo.report import final_json, next_json, pending_json
from kbgrules.king_of_tokyo.result import king_of_tokyo_result
from kbgrules.king_of_tokyo.state import KingOfTokyoState


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

    def apply_with_chance(self, st: KingOfTokyoState, act: Action, parsed: list[Parsed], k: int,
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
                if q is None or q.kind != "camouflage" or q.monster != need.monster:
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
        st = self.new_state((), first, begin=False)
        st.starting = False  # a draw still owed at the start of the game is stated (owes=evolution)
        for m in st.monsters:
            m.evo_owed = 0
        rs = self.rs
        for p in states:
            assert p.monster is not None
            m = st.monsters[p.monster]
            info = p.values[0]
            m.hp = int(info.get("hp", m.hp))
            m.vp = int(info.get("vp", m.vp))
            m.energy = int(info.get("energy", m.energy))
            m.location = str(info.get("place", m.location))
            m.eliminated = bool(info.get("eliminated", False)) or m.hp == 0
            for token in ("poison", "shrink", "smoke"):
                m.tokens[token] = int(info.get(token, 0))
            for name in info.get("marks", []):  # a lasting state a card left (Zombify)
                HOOKS[name].put_mark(m)
            m.dice_tokens = int(info.get("dicetokens", 0))
            if m.dice_tokens and not rs.dice_tokens_per_turn:
                raise violation(rs, "kot-position", monster=m.name,
                                problem="dice tokens belong to the Godzilla edition")
            w = rs.wickedness
            if "wickedness" in info or "tiles" in info:
                if w is None:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem="wickedness and tiles belong to the Dark Edition")
                m.wickedness = min(int(info.get("wickedness", 0)), w.max)
                m.levels = [lv for lv in w.thresholds if lv <= m.wickedness]
                for tid in info.get("tiles", []):
                    t = st.cards[f"tile:{tid}"]
                    red = tid if t.side == "red" or not t.back else t.back
                    if red not in st.tile_supply:
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"the tile {t.name} is already taken")
                    if t.level not in m.levels:
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"{t.name} is a level-{t.level} tile; wickedness is {m.wickedness}")
                    if any(st.cards[f"tile:{o}"].level == t.level for o in m.tiles):
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"{m.name} holds two level-{t.level} tiles: one per level")
                    if tid not in st.tiles_left(t.level):
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"the {t.side} side {t.name} is not in play in this game")
                    st.tile_supply.remove(red)
                    m.tiles.append(tid)
            for key in ("evolutions", "hand", "discarded"):
                for c in info.get(key, []):
                    if rs.evolution is None:
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem="evolutions are not in play (add @variant power-up)")
                    if c == "?" and key == "hand":
                        m.secret += 1
                        m.hand.append("?")
                        continue
                    if c == "?":
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"'?' (a secret evolution) belongs in the hand, not in {key}")
                    if m.evo_deck[c] <= 0:
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"{st.cards['evolution:' + c].name} is not left in its deck")
                    m.evo_deck[c] -= 1
                    if key == "discarded":
                        m.evo_discard[c] += 1
                        continue
                    (m.evolutions if key == "evolutions" else m.hand).append(c)
            for c in info.get("bottom", []):  # known cards under the deck, top first: still in it
                if c == "?" or m.evo_deck[c] <= m.evo_bottom.count(c):
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"{c} is not left in {m.name}'s evolution deck to lie under it")
                m.evo_bottom.append(c)
            for c in info.get("cards", []):
                if st.cards[c].type != "keep":
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"{st.cards[c].name} is not a keep card")
                if st.deck[c] <= 0:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"more copies of {st.cards[c].name} than the deck has")
                st.deck[c] -= 1
                m.cards.append(c)
            self._owes(st, m, info.get("owes", []))
            for c, n in info.get("on", {}).items():  # energy or tokens on a card (Battery Monster)
                if not holds(st, c) or (c not in m.cards and c not in m.evolutions):
                    key = c if c in st.cards else f"evolution:{c}"
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"{st.cards[key].name} holds no energy or tokens here (CARD:N is for a "
                                            "card in play that does)")
                m.stored[c] = n
            if m.hp > st.max_hp(m):
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"{m.name} has {m.hp} life; its maximum is {st.max_hp(m)}")
            if "began" in info and (m.eliminated or (info["began"] == "bay" and not st.bay_open())):
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"{m.name} cannot have begun this turn in {info['began']}")
            if m.eliminated and m.location != "outside":
                raise violation(rs, "kot-position", monster=m.name, problem=f"{m.name} is eliminated but in Tokyo")
        for space in ("city", "bay"):
            holders = [m.name for m in st.monsters if m.location == space]
            if len(holders) > 1:
                raise violation(rs, "kot-position",
                                problem=f"{' and '.join(holders)} are both in Tokyo {space.title()}")
        if st.occupant("bay") is not None and not st.bay_open():
            raise violation(rs, "kot-position", problem="Tokyo Bay is not in use with this many monsters")
        if st.monsters[first].eliminated:
            raise violation(rs, "kot-position", at="first",
                            problem=f"{st.monsters[first].name} is eliminated and has no turn")
        if len(market) != rs.market_size:
            raise violation(rs, "kot-reveal-count", expected=rs.market_size, got=len(market))
        st.reveal(market, effects=False)
        from collections import Counter

        for c, n in Counter(discard).items():  # the discard pile: out of the deck until a reshuffle
            if st.deck[c] < n:
                raise violation(rs, "kot-position", at="discard",
                                problem=f"the discard pile cannot hold {n} {st.cards[c].name}: only {st.deck[c]} "
                                        "not in the market or in play")
            st.deck[c] -= n
            st.discards[c] += n
        for c, n in Counter(deck).items():
            if st.deck[c] < n:
                raise violation(rs, "kot-position", at="deck",
                                problem=f"the deck cannot hold {n} {st.cards[c].name}: only {st.deck[c]} left")
        st.deck_order = list(deck)
        for t in gone_tiles:  # wickedness tiles discarded: out of the game
            card = st.cards[f"tile:{t}"]
            red = t if card.side == "red" or not card.back else card.back
            if red not in st.tile_supply:
                raise violation(rs, "kot-position", at="discard",
                                problem=f"the tile {card.name} is not in the supply (held, or listed twice)")
            st.tile_supply.remove(red)
        began_at = {p.monster: str(p.values[0]["began"]) for p in states if "began" in p.values[0]}
        ev = rs.evolution
        if ev is not None and ev.start_draw and phase in ("start", "started") and any(m.evo_owed for m in st.monsters):
            st.starting = True  # the starting draws are still being made
        if phase == "start":
            st.start_turn()
        else:
            st.start_turn(effects=False)  # the position already holds what the start of the turn gave
        st.turn_began = [began_at.get(i, m.location) for i, m in enumerate(st.monsters)]
        if phase in ("start", "started"):
            return st
        if phase == "resolve" and st._camouflage_held():
            raise violation(rs, "kot-position", at="first",
                            problem="a position at 'resolve' cannot give the Camouflage dice its hits may need: "
                                    "start it at 'rolled', then write the keep and the camouflage line")
        if phase in ("rolled", "resolve"):  # the dice after the first roll, or the final dice, resolved now
            try:
                st.apply(Roll(tuple(dice)))
                if phase == "resolve":
                    st.apply(Keep())
            except IllegalMoveError as exc:
                exc.params["at"] = "first"  # the `turn NAME rolled|resolve DICE` line is to blame
                raise
            rolls = int(extra.get("rolls", 1))
            if rolls > st.max_rolls():
                raise violation(rs, "kot-position", at="first",
                                problem=f"{st.me.name} rolls at most {st.max_rolls()} times in this turn, not {rolls}")
            st.rolls = rolls
        elif phase == "decide":  # the final dice resolved (the numbers include them): the hit decide
            if len(dice) != st.dice_count():
                raise violation(rs, "kot-dice-count", at="first", monster=st.me.name, expected=st.dice_count(),
                                got=len(dice))
            self._resolved(st, dice, extra["hit"])
            st.pending = [i for i in (st.occupant("city"), st.occupant("bay"))
                          if i is not None and i in st.smash_damage]
            if not st.pending:
                raise violation(rs, "kot-position", at="first",
                                problem="no monster in Tokyo lost life to the smashes: nobody decides "
                                        "(start at 'turn NAME enter')")
            st.phase = "decide"
        elif phase == "enter":  # dice resolved, decisions made: the Enter Tokyo step comes first
            st.smashes = 1  # 2011: only a monster that smashed may enter, so the step says it did
            st.phase = "decide"
            st.finish_decisions()
        else:  # buy, end: the dice were resolved and Tokyo entered
            st.phase = "buy"
            self._resolved(st, dice, extra.get("hit", {}))
            st.bought = bool(extra.get("bought"))
        return st

    def _owes(self, st: KingOfTokyoState, m: Monster, owes: Sequence[str]) -> None:
        """``owes=evolution,tile-N``: the evolution draws and the wickedness tiles due and not taken yet."""
        rs = self.rs
        for o in owes:
            if o == "evolution":
                if rs.evolution is None:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem="evolutions are not in play (add @variant power-up)")
                m.evo_owed += 1
                continue
            level = int(o[5:])
            if level not in m.levels or level in m.owed or any(st.cards[f"tile:{t}"].level == level for t in m.tiles):
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"{m.name} is owed no level-{level} tile (its wickedness is {m.wickedness}, "
                                        "and a tile of each level passed is taken once)")
            m.owed.append(level)

    def _resolved(self, st: KingOfTokyoState, dice: Sequence[str], hit: dict[int, int]) -> None:
        """The final dice of a position past their resolution (the numbers include them), and the life each
        monster lost to their smashes."""
        rs = self.rs
        if st.active in hit:
            raise violation(rs, "kot-position", at="first",
                            problem=f"{st.me.name} cannot lose life to its own smashes")
        st.dice, st.final_dice = list(dice), list(dice)
        st.smashes = sum(f == "smash" for f in dice)
        st.smash_damage = dict(hit)
        st.dealt_damage = bool(hit)
        st.turn_losses = [(i, st.active, n, True) for i, n in hit.items()]

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

    def run(self, parsed: list[Parsed], stop_line: int | None) -> None:
        market: list[str] = []
        first = 0
        states: list[Parsed] = []
        phase: str = "start"
        dice: Sequence[str] = ()
        extra: dict[str, Any] = {}
        consumed: set[int] = set()
        for k, p in enumerate(parsed):
            if stop_line is not None and p.event.line >= stop_line:
                break
            if k in consumed:
                continue
            try:
                if p.kind == "camouflage":
                    raise violation(self.rs, "kot-camouflage",
                                    problem=f"no Camouflage dice are needed here: {self.players[p.monster or 0]} "
                                            "has just lost no life that Camouflage could cancel")
                if p.kind == "setup":
                    if self.state is not None and p.what == "first":
                        self.turn_marker(self.state, p)
                        continue
                    if self.state is not None:
                        raise LogSyntaxError(f"'{p.event.tokens[0].text}' belongs before the first turn", p.event.col)
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
                if p.kind == "expect":
                    self.checkpoint(st, p)
                    continue
                assert p.action is not None
                act = p.action
                self.check_actor(st, act, p.monster)
                self.apply_with_chance(st, act, parsed, k, consumed)
            except IllegalMoveError as exc:
                self.fail(p, exc)
                return
            except LogSyntaxError as exc:
                self.report.errors.append(Diagnostic(self.file, p.event.line, exc.col, exc.code, exc.message))
                return
            except KbgError as exc:  # a card the checker cannot replay yet
                self.report.errors.append(Diagnostic(self.file, p.event.line, p.event.col, exc.code, exc.message))
                self.report.notes.append(Diagnostic(self.file, p.event.line, p.event.col, "stopped",
                                                    f"game {self.report.index}: checking stopped at this line",
                                                    "note"))
                return
        if self.state is None:
            if self.drafting():  # the log ends in the draft's set-up: nothing is played yet, so no state yet
                return
            try:
                self.state = self.start(market, first, states, phase, dice, extra)
            except IllegalMoveError as exc:
                self.fail(self.culprit(exc, states, states[-1] if states else parsed[0]), exc)
                self.state = KingOfTokyoState(self.rs, self.players, (), first)


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
                   if unknown is not None else f"@monsters names {len(names)} monsters for {len(players)} players")
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

    def parse(ev: Event) -> Parsed:
        if ev.block:
            report.errors.append(Diagnostic(file, ev.block[0][0], 1, "log-syntax",
                                            "King of Tokyo events have no indented lines"))
        return parser.parse(ev)

    replay = Replay(file, rs, players, report, monsters, sides)
    replay_events(file, g, report, parse, lambda steps, stop: replay.run([p for _, p in steps], stop))
    if replay.state is not None:
        report.result = king_of_tokyo_result(replay.state, final_json(replay.state))
        report.timeline_builder = partial(timeline, replay.state)  # the state only: no cycle through the report
    return replay.state
