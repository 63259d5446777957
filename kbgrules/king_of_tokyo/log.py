"""King of Tokyo events in game logs: parsing, replay and checkpoints (docs/log-format.md)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kbgrules.core.logfile import Event, GameText, LogSyntaxError, PlayerNames, Token
from kbgrules.core.report import GameReport
from kbgrules.errors import Diagnostic, IllegalMoveError, KbgError
from kbgrules.king_of_tokyo.state import (
    FACE_ALIASES,
    Action,
    Buy,
    ChanceNeeded,
    Cure,
    Decide,
    EndTurn,
    Evolve,
    Keep,
    KingOfTokyoState,
    Play,
    Reroll,
    Roll,
    Sweep,
    Take,
    Tokens,
    Use,
    face,
    final_json,
    violation,
)
from kbgrules.model import KingOfTokyoRuleset

KEYWORDS = {"market", "first", "expect", "turn", "deck", "discard", "tiles"}
STATE_KEYS = {"hp", "vp", "energy", "place", "cards", "poison", "shrink", "smoke", "wickedness", "tiles",
              "evolutions", "hand", "dicetokens"}
VERBS = {"roll", "reroll", "keep", "yield", "stay", "buy", "sweep", "end", "use", "cure", "camouflage", "take",
         "evolve", "play", "tokens", "evolutions"}
COUNTERS = {"poison", "shrink", "smoke", "wickedness", "dicetokens"}
LOCATIONS = {"outside", "city", "bay"}
_NO_ARGUMENT = frozenset(("keep", "yield", "stay", "end"))


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


@functools.lru_cache(maxsize=4096)
def slug(text: str) -> str:
    return _NOT_SLUG.sub("-", text.lower().replace("'", "")).strip("-")


@dataclass(slots=True)
class Parsed:
    event: Event
    kind: str  # action, expect, setup
    action: Action | None = None
    what: str = ""
    monster: int | None = None
    values: list[Any] = field(default_factory=list)
    card_at: int = -1  # the index of the token naming the card (for the column of a message), if any


class Parser(PlayerNames):
    def __init__(self, rs: KingOfTokyoRuleset, players: tuple[str, ...]) -> None:
        self.rs = rs
        super().__init__(players)
        self.card_ids: dict[str, str] = {}
        for c in rs.cards:
            self.card_ids[c.id] = c.id
            self.card_ids[slug(c.name)] = c.id
        self.tile_ids = {k: c.id for c in rs.tiles for k in (c.id, slug(c.name))}
        self.evo_ids = {k: c.id for c in rs.evolutions for k in (c.id, slug(c.name))}

    def card(self, tok: Token) -> str:
        cid = self.card_ids.get(slug(tok.text))
        if cid is None:
            if not self.rs.cards:
                raise LogSyntaxError(f"{tok.text!r}: the {self.rs.edition.title} ships no card list; give the "
                                     "cards with --rules DIR (a file of kind cards with `edition: "
                                     f"{self.rs.edition.id}`; see docs/king-of-tokyo.md)", tok.col, "log-card")
            raise LogSyntaxError(f"{tok.text!r} is not a card of this edition (write its id, as `kbg rules kot cards "
                                 "--json` lists them, e.g. acid-attack)", tok.col, "log-card")
        return cid

    def tile(self, tok: Token) -> str:
        tid = self.tile_ids.get(slug(tok.text))
        if tid is None:
            why = ("wickedness tiles belong to the Dark Edition (@edition dark)" if not self.rs.tiles
                   else "kbg rules kot tiles --edition dark lists them")
            raise LogSyntaxError(f"{tok.text!r} is not a wickedness tile: {why}", tok.col, "log-card")
        return tid

    def evolution(self, tok: Token) -> str:
        if tok.text == "?":
            return "?"
        eid = self.evo_ids.get(slug(tok.text))
        if eid is None:
            if not self.rs.evolutions and self.rs.evolution is not None:
                why = (f"the {self.rs.edition.title} ships no evolution list; give yours with --rules DIR "
                       f"(a file of kind evolutions with `edition: {self.rs.edition.id}`)")
            elif self.rs.evolution is None:
                why = "evolutions are not in play (add @variant power-up)"
            else:
                why = "no evolution has that name or id"
            raise LogSyntaxError(f"{tok.text!r} is not an evolution card: {why}", tok.col, "log-card")
        return eid

    def usable(self, tok: Token) -> str:
        """The engine key of a card, tile or evolution named in ``use``."""
        k = slug(tok.text)
        if k in self.card_ids:
            return self.card_ids[k]
        if k in self.tile_ids:
            return "tile:" + self.tile_ids[k]
        if k in self.evo_ids:
            return "evolution:" + self.evo_ids[k]
        return self.card(tok)

    def faces(self, toks: list[Token]) -> tuple[str, ...]:
        out = []
        for t in toks:
            f = face(t.text)
            if f is None:
                raise LogSyntaxError(f"{t.text!r} is not a die face: use 1 2 3 e h s (energy, heart, smash)", t.col,
                                     "log-face")
            out.append(f)
        return tuple(out)

    def parse(self, ev: Event) -> Parsed:
        words = ev.words
        who = self.index.get(words[0])
        if who is not None and len(words) >= 2:
            fast = self.common_action(ev, who, words)
            if fast is not None:
                return fast
        t = ev.tokens
        head = t[0].text
        if head == "market":
            return Parsed(ev, "setup", what="market", values=[self.card(x) for x in t[1:]])
        if head == "first":
            if len(t) != 2:
                raise LogSyntaxError("expected: first NAME (the monster that won the roll for first player)", ev.col)
            return Parsed(ev, "setup", what="first", monster=self.player(t[1]))
        if head == "expect":
            return self.expect(ev)
        if head == "turn":
            if len(t) not in (2, 3) or (len(t) == 3 and t[2].text not in ("roll", "buy")):
                raise LogSyntaxError("expected: turn NAME [roll|buy] (whose turn, and the phase a position starts in)",
                                     ev.col)
            return Parsed(ev, "setup", what="first", monster=self.player(t[1]),
                          values=[t[2].text if len(t) == 3 else "roll"])
        if head in ("deck", "discard"):
            return Parsed(ev, "setup", what=head, values=[self.card(x) for x in t[1:]])
        if head == "tiles":
            return Parsed(ev, "setup", what="tiles", values=[self.tile(x) for x in t[1:]])
        if len(t) >= 2 and t[1].text == "is":
            return self.position(ev)
        who = self.player(t[0])
        if len(t) < 2 or t[1].text not in VERBS:
            col = t[1].col if len(t) > 1 else ev.col
            raise LogSyntaxError(f"expected a verb after the monster: {', '.join(sorted(VERBS))}", col)
        verb = t[1].text
        rest = t[2:]
        if verb == "roll":  # no faces at all: a monster whose Shrink Ray tokens took every die
            return Parsed(ev, "action", Roll(self.faces(rest)), monster=who)
        if verb == "reroll":
            texts = [x.text for x in rest]
            if texts.count(":") != 1:
                raise LogSyntaxError("expected: NAME reroll FACES : NEW-FACES (e.g. reroll 1 2 : s 3)", t[1].col)
            k = texts.index(":")
            return Parsed(ev, "action", Reroll(self.faces(rest[:k]), self.faces(rest[k + 1:])), monster=who)
        if verb in ("keep", "yield", "stay", "end"):
            if rest:
                raise LogSyntaxError(f"{verb} takes nothing after it", rest[0].col)
            action: Action = (Keep() if verb == "keep" else EndTurn(who) if verb == "end"
                              else Decide(who, verb == "yield"))
            return Parsed(ev, "action", action, monster=who)
        if verb == "camouflage":
            return Parsed(ev, "camouflage", monster=who, values=list(self.faces(rest)))
        if verb == "cure":
            if not rest or rest[0].text not in ("poison", "shrink") or len(rest) > 2 or (
                    len(rest) == 2 and not (rest[1].text.isascii() and rest[1].text.isdigit())):
                raise LogSyntaxError("expected: NAME cure poison|shrink [N] (hearts spent to remove tokens)", t[1].col)
            n = int(rest[1].text) if len(rest) == 2 else 1
            return Parsed(ev, "action", Cure(who, rest[0].text, n), monster=who)
        if verb == "use":
            if not rest:
                raise LogSyntaxError("expected: NAME use CARD [ARGUMENTS]", t[1].col)
            return Parsed(ev, "action", Use(who, self.usable(rest[0]), tuple(x.text for x in rest[1:])),
                          monster=who, card_at=2)
        if verb == "take":
            if len(rest) != 1:
                raise LogSyntaxError("expected: NAME take TILE (a wickedness tile)", t[1].col)
            return Parsed(ev, "action", Take(who, self.tile(rest[0])), monster=who, card_at=2)
        if verb == "tokens":
            if len(rest) != 1 or not (rest[0].text.isascii() and rest[0].text.isdigit()) or rest[0].text == "0":
                raise LogSyntaxError("expected: NAME tokens N (dice tokens spent before the first roll)", t[1].col)
            return Parsed(ev, "action", Tokens(who, int(rest[0].text)), monster=who)
        if verb == "play":
            if not rest:
                raise LogSyntaxError("expected: NAME play EVOLUTION [ARGUMENTS]", t[1].col)
            card = self.evolution(rest[0])
            if card == "?":
                raise LogSyntaxError("name the evolution played", rest[0].col)
            return Parsed(ev, "action", Play(who, card, tuple(x.text for x in rest[1:])), monster=who, card_at=2)
        if verb == "evolutions":
            return Parsed(ev, "setup", what="evolutions", monster=who, values=[self.evolution(x) for x in rest])
        if verb == "evolve":
            texts = [x.text for x in rest]
            k = texts.index("keep") if "keep" in texts else len(texts)
            drawn = tuple(self.evolution(x) for x in rest[:k])
            kept = tuple(self.evolution(x) for x in rest[k + 1:]) if k < len(texts) else ()
            if not drawn or (k < len(texts) and not kept):
                raise LogSyntaxError("expected: NAME evolve CARD (or ?), or NAME evolve CARD CARD keep CARD",
                                     t[1].col)
            if not kept:
                if len(drawn) == 1 or set(drawn) == {"?"}:
                    kept = drawn[:1]
                else:
                    raise LogSyntaxError("say which evolution is kept: NAME evolve CARD CARD keep CARD", t[1].col)
            return Parsed(ev, "action", Evolve(who, drawn, kept), monster=who)
        if verb == "buy":
            texts = [x.text for x in rest]
            if len(texts) == 2 and texts[0] == "top":  # Made in a Lab
                return Parsed(ev, "action", Buy(who, self.card(rest[1]), None, top=True), monster=who, card_at=3)
            if len(texts) == 3 and texts[1] == "from":  # Parasitic Tentacles
                return Parsed(ev, "action", Buy(who, self.card(rest[0]), None, seller=self.player(rest[2])),
                              monster=who, card_at=2)
            if not rest or (":" in texts and (texts.index(":") != 1 or len(texts) != 3)) or \
                    (":" not in texts and len(texts) != 1):
                raise LogSyntaxError("expected: NAME buy CARD : REVEALED-CARD (or buy top CARD, buy CARD from NAME)",
                                     t[1].col)
            reveal = self.card(rest[2]) if len(rest) == 3 else None
            return Parsed(ev, "action", Buy(who, self.card(rest[0]), reveal), monster=who, card_at=2)
        texts = [x.text for x in rest]
        if not texts or texts[0] != ":":
            raise LogSyntaxError("expected: NAME sweep : CARD CARD CARD (the cards revealed)", t[1].col)
        return Parsed(ev, "action", Sweep(who, tuple(self.card(x) for x in rest[1:])), monster=who)

    def common_action(self, ev: Event, who: int, words: list[str]) -> Parsed | None:
        """The common, well-formed monster actions, read from the words alone (no columns needed);
        None for anything else, which ``parse`` reads (and reports) from the tokens."""
        verb = words[1]
        if verb == "roll" or verb == "reroll":
            faces = []
            for w in words[2:]:
                f = FACE_ALIASES.get(w) or (":" if w == ":" else FACE_ALIASES.get(w.lower()))
                if f is None:
                    return None
                faces.append(f)
            if verb == "roll":
                return None if ":" in faces else Parsed(ev, "action", Roll(tuple(faces)), monster=who)
            if faces.count(":") != 1:
                return None
            k = faces.index(":")
            return Parsed(ev, "action", Reroll(tuple(faces[:k]), tuple(faces[k + 1:])), monster=who)
        if len(words) == 2 and verb in _NO_ARGUMENT:
            action: Action = (Keep() if verb == "keep" else EndTurn(who) if verb == "end"
                              else Decide(who, verb == "yield"))
            return Parsed(ev, "action", action, monster=who)
        cards = self.card_ids
        if verb == "buy" and len(words) == 5 and words[3] == ":":
            bought, reveal = cards.get(slug(words[2])), cards.get(slug(words[4]))
            if bought is None or reveal is None:
                return None
            return Parsed(ev, "action", Buy(who, bought, reveal), monster=who, card_at=2)
        if verb == "sweep" and len(words) >= 3 and words[2] == ":":
            reveals = []
            for w in words[3:]:
                cid = cards.get(slug(w))
                if cid is None:
                    return None
                reveals.append(cid)
            return Parsed(ev, "action", Sweep(who, tuple(reveals)), monster=who)
        return None

    def position(self, ev: Event) -> Parsed:
        """``NAME is hp=N vp=N energy=N place=city cards=a,b poison=N shrink=N smoke=N [eliminated]``."""
        t = ev.tokens
        who = self.player(t[0])
        state: dict[str, Any] = {}
        for x in t[2:]:
            if x.text == "eliminated":
                state["eliminated"] = True
                continue
            key, eq, value = x.text.partition("=")
            if not eq or key not in STATE_KEYS:
                raise LogSyntaxError(f"{x.text!r}: write KEY=VALUE with KEY one of {', '.join(sorted(STATE_KEYS))}",
                                     x.col)
            if key == "place":
                if value not in LOCATIONS:
                    raise LogSyntaxError("place is outside, city or bay", x.col)
                state[key] = value
            elif key == "cards":
                state[key] = [self.card(Token(c, x.col)) for c in value.split(",") if c]
            elif key == "tiles":
                state[key] = [self.tile(Token(c, x.col)) for c in value.split(",") if c]
            elif key in ("evolutions", "hand"):
                state[key] = [self.evolution(Token(c, x.col)) for c in value.split(",") if c]
            elif value.isascii() and value.isdigit():
                state[key] = int(value)
            else:
                raise LogSyntaxError(f"{key} must be a number", x.col)
        return Parsed(ev, "setup", what="monster", monster=who, values=[state])

    def expect(self, ev: Event) -> Parsed:
        t = ev.tokens
        if len(t) >= 2 and t[1].text in ("winner", "winners"):
            names = [x.text for x in t[2:]]
            values = [] if names == ["none"] else [self.player(x) for x in t[2:]]
            return Parsed(ev, "expect", what="winner", values=values)
        if len(t) == 4 and t[1].text == "tokyo" and t[2].text in ("city", "bay"):
            holder = None if t[3].text == "-" else self.player(t[3])
            return Parsed(ev, "expect", what=t[2].text, monster=holder)
        if len(t) == 3 and t[2].text in ("eliminated", "alive"):
            return Parsed(ev, "expect", what=t[2].text, monster=self.player(t[1]))
        if len(t) >= 3 and t[2].text == "cards":
            return Parsed(ev, "expect", what="cards", monster=self.player(t[1]),
                          values=sorted(self.card(x) for x in t[3:]))
        if len(t) >= 3 and t[2].text in ("tiles", "evolutions"):
            parse = self.tile if t[2].text == "tiles" else self.evolution
            return Parsed(ev, "expect", what=t[2].text, monster=self.player(t[1]),
                          values=sorted(parse(x) for x in t[3:]))
        if len(t) == 4 and t[2].text in COUNTERS:
            if not (t[3].text.isascii() and t[3].text.isdigit()):
                raise LogSyntaxError(f"{t[2].text} must be a number", t[3].col)
            return Parsed(ev, "expect", what=t[2].text, monster=self.player(t[1]), values=[int(t[3].text)])
        if len(t) == 4 and t[2].text in ("hp", "vp", "energy", "location"):
            who = self.player(t[1])
            if t[2].text == "location":
                if t[3].text not in LOCATIONS:
                    raise LogSyntaxError("a location is outside, city or bay", t[3].col)
                return Parsed(ev, "expect", what="location", monster=who, values=[t[3].text])
            if not (t[3].text.isascii() and t[3].text.isdigit()):
                raise LogSyntaxError(f"{t[2].text} must be a number", t[3].col)
            return Parsed(ev, "expect", what=t[2].text, monster=who, values=[int(t[3].text)])
        raise LogSyntaxError("expected: expect NAME hp|vp|energy|poison|shrink|smoke|wickedness|dicetokens N, "
                             "expect NAME tiles|evolutions ID..., expect NAME location PLACE, "
                             "expect NAME eliminated|alive, expect NAME cards CARD..., expect tokyo city|bay NAME|-, "
                             "or expect winner NAME... | none", ev.col)


def _col(p: Parsed, exc: IllegalMoveError) -> int:
    if exc.code in ("kot-not-in-market", "kot-no-energy") and p.card_at >= 0:
        return p.event.tokens[p.card_at].col
    return p.event.col


class Replay:
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
        who = exc.params.get("monster")
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
        want = p.values[0] if p.values else "roll"
        if p.event.tokens[0].text != "turn":
            raise LogSyntaxError(f"'{p.event.tokens[0].text}' belongs before the first turn", p.event.col)
        at_start = st.phase == "roll" and not st.rolls
        at_buy = st.phase == "buy"
        if st.active != p.monster or (want == "roll" and not at_start) or (want == "buy" and not at_buy):
            where = "about to roll" if at_start else "buying" if at_buy else "in the middle of its turn"
            raise violation(self.rs, "kot-checkpoint", what=f"turn {self.players[p.monster]} {want}",
                            stated=f"{self.players[p.monster]} {'starting' if want == 'roll' else 'buying'}",
                            actual=f"{st.me.name} {where}")

    def start(self, market: list[str], first: int, states: list[Parsed], phase: str = "roll") -> KingOfTokyoState:
        """The state at the start of play: the setup, or the stated position (``NAME is ...`` lines)."""
        deck = [c for p in states if p.what == "deck" for c in p.values]
        discard = [c for p in states if p.what == "discard" for c in p.values]
        states = [p for p in states if p.what == "monster"]
        if not states and not deck and not discard and phase == "roll":
            if market and len(market) != self.rs.market_size:
                raise violation(self.rs, "kot-reveal-count", expected=self.rs.market_size, got=len(market))
            return self.new_state(market, first)
        st = self.new_state((), first, begin=False)
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
            for key in ("evolutions", "hand"):
                for c in info.get(key, []):
                    if rs.evolution is None:
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem="evolutions are not in play (add @variant power-up)")
                    if c == "?":
                        m.secret += 1
                        m.hand.append("?")
                        continue
                    if m.evo_deck[c] <= 0:
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"{st.cards['evolution:' + c].name} is not left in its deck")
                    m.evo_deck[c] -= 1
                    (m.evolutions if key == "evolutions" else m.hand).append(c)
                    if key == "evolutions" and st.cards["evolution:" + c].type != "permanent":
                        raise violation(rs, "kot-position", monster=m.name,
                                        problem=f"{st.cards['evolution:' + c].name} is temporary: it is not "
                                                "left in play")
            for c in info.get("cards", []):
                if st.cards[c].type != "keep":
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"{st.cards[c].name} is not a keep card")
                if st.deck[c] <= 0:
                    raise violation(rs, "kot-position", monster=m.name,
                                    problem=f"more copies of {st.cards[c].name} than the deck has")
                st.deck[c] -= 1
                m.cards.append(c)
            if m.hp > st.max_hp(m):
                raise violation(rs, "kot-position", monster=m.name,
                                problem=f"{m.name} has {m.hp} life; its maximum is {st.max_hp(m)}")
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
        if phase == "buy":  # the position starts after the active monster's dice were resolved
            st.phase = "buy"
            st.rolls = 0
        else:
            st.start_turn()
        return st

    def timeline(self) -> None:
        if self.state is None:
            return
        for n, (who, rows) in enumerate(self.state.turn_ends):
            self.report.timeline.append({
                "turn": n + 1, "monster": self.players[who],
                "monsters": [{"name": name, "hp": hp, "vp": vp, "energy": e, "location": loc, "eliminated": out,
                              **({"wickedness": w} if self.rs.wickedness is not None else {})}
                             for name, (hp, vp, e, loc, out, w) in zip(self.players, rows, strict=True)],
            })

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
        actual = {"hp": m.hp, "vp": m.vp, "energy": m.energy, "location": m.location,
                  "poison": m.tokens["poison"], "shrink": m.tokens["shrink"], "smoke": m.tokens["smoke"],
                  "wickedness": m.wickedness, "dicetokens": m.dice_tokens}[p.what]
        if actual != p.values[0]:
            raise violation(self.rs, "kot-checkpoint", what=f"{m.name}'s {p.what}", stated=p.values[0],
                            actual=actual)

    def run(self, parsed: list[Parsed], stop_line: int | None) -> None:
        market: list[str] = []
        first = 0
        states: list[Parsed] = []
        phase = "roll"
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
                        phase = p.values[0] if p.values else "roll"
                    continue
                if self.state is None:
                    try:
                        self.state = self.start(market, first, states, phase)
                    except IllegalMoveError as exc:
                        self.fail(self.culprit(exc, states, p), exc)
                        self.state = KingOfTokyoState(self.rs, self.players, (), first)
                        return
                st = self.state
                if p.kind == "expect":
                    self.checkpoint(st, p)
                    continue
                assert p.action is not None
                act = p.action
                opportunist = isinstance(act, Buy) and "opportunist" in st.in_play(st.monsters[act.monster])
                if not isinstance(act, (Decide, Use, Evolve, Play)) and not opportunist and p.monster is not None \
                        and p.monster != st.active and st.over is None:
                    raise violation(self.rs, "kot-wrong-monster", expected=st.me.name,
                                    actor=self.players[p.monster])
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
            try:
                self.state = self.start(market, first, states, phase)
            except IllegalMoveError as exc:
                self.fail(self.culprit(exc, states, states[-1] if states else parsed[0]), exc)
                self.state = KingOfTokyoState(self.rs, self.players, (), first)


def check_king_of_tokyo(file: str, g: GameText, rs: KingOfTokyoRuleset, report: GameReport) -> None:
    players = report.players
    tag = g.tag("players")
    assert tag is not None
    bad = [p for p in players if p in KEYWORDS or not p[0].isalpha()]
    if bad or len(set(players)) != len(players):
        why = (f"{bad[0]!r} cannot be a player name (names start with a letter and are not one of "
               f"{', '.join(sorted(KEYWORDS))})" if bad else "player names must differ")
        report.errors.append(Diagnostic(file, tag.line, tag.values[0].col, "log-player", why))
        return
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
            return
        monsters = tuple(slug(x) for x in names)
    elif rs.evolution is not None and not rs.evolution.draft and rs.evolutions:
        tag = g.tag("players")
        assert tag is not None
        report.errors.append(Diagnostic(file, tag.line, 1, "log-header",
                                        "evolutions are in play: say each player's monster with @monsters "
                                        "(in seat order, e.g. @monsters the-king gigazaur)"))
        return
    sides = ""
    stag = g.tag("tiles")
    if stag is not None:
        side = stag.values[0].text
        if rs.wickedness is None or side not in rs.wickedness.sides or len(stag.values) != 1:
            why = ("@tiles is for the Dark Edition (@edition dark)" if rs.wickedness is None
                   else f"@tiles is one of {', '.join(rs.wickedness.sides)}")
            report.errors.append(Diagnostic(file, stag.line, stag.values[0].col, "log-header", why))
            return
        sides = side
    parser = Parser(rs, players)
    parsed: list[Parsed] = []
    first_error: int | None = None
    for ev in g.events:
        if ev.block:
            report.errors.append(Diagnostic(file, ev.block[0][0], 1, "log-syntax",
                                            "King of Tokyo events have no indented lines"))
        try:
            parsed.append(parser.parse(ev))
        except LogSyntaxError as exc:
            report.errors.append(Diagnostic(file, ev.line, exc.col, exc.code, exc.message))
            first_error = first_error if first_error is not None else ev.line
    replay = Replay(file, rs, players, report, monsters, sides)
    replay.run(parsed, first_error)
    if first_error is not None and not report.violations:
        report.notes.append(Diagnostic(file, first_error, 1, "stopped",
                                       f"game {report.index}: checking stopped at this line (syntax error)", "note"))
    if replay.state is not None:
        report.final = final_json(replay.state)
        report.timeline_builder = replay.timeline
