"""King of Tokyo log events read into moves: ``Parser`` turns an event line of a game log into an action,
a position line or an expectation (``Parsed``), naming the line's problem if it cannot (docs/log-format.md).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from operator import itemgetter as _pick
from typing import Any, Final

from kbgrules.core.closest import closest, did_you_mean
from kbgrules.core.logfile import Event, LogSyntaxError, PlayerNames, Token
from kbgrules.errors import suggest
from kbgrules.king_of_tokyo.model import KingOfTokyoRuleset
from kbgrules.king_of_tokyo.moves import (
    FACE_ALIASES,
    Action,
    Buy,
    Cure,
    Decide,
    EndTurn,
    Evolve,
    Keep,
    Play,
    Reroll,
    Roll,
    Sweep,
    Take,
    Tokens,
    Use,
    face,
)

KEYWORDS = {"market", "first", "expect", "turn", "deck", "discard", "tiles"}
STATE_KEYS = {"hp", "vp", "energy", "place", "cards", "poison", "shrink", "smoke", "wickedness", "tiles",
              "evolutions", "hand", "discarded", "bottom", "owes", "began",
              "dicetokens"}
VERBS = {"roll", "reroll", "keep", "yield", "stay", "buy", "sweep", "end", "use", "cure", "camouflage", "take",
         "evolve", "play", "tokens", "evolutions"}
COUNTERS = {"poison", "shrink", "smoke", "wickedness", "dicetokens"}
# roll: the old word for start; started: its start-of-turn effects are over
POSITION_PHASES = ("start", "roll", "started", "rolled", "resolve", "decide", "enter", "buy", "end")
GAME_CHECKS = ("market", "deck", "discard", "dice", "pending")  # expect WHAT ...: not about one monster
LOCATIONS = {"outside", "city", "bay"}
_NO_ARGUMENT: Final = frozenset(("keep", "yield", "stay", "end"))
_FACE: Final = FACE_ALIASES.get
_DIE: Final = {**FACE_ALIASES, ":": ""}
_EXPECT_NUMBERS: Final = frozenset((*COUNTERS, "hp", "vp", "energy", "max-life"))
_NOT_MONSTERS: Final = frozenset(("winner", "winners", "tokyo", *GAME_CHECKS))  # words expect reads first
_PLAIN: Final[dict[str, dict[int, Action]]] = {v: {} for v in _NO_ARGUMENT}  # by verb, then monster


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


@functools.lru_cache(maxsize=4096)
def slug(text: str) -> str:
    return _NOT_SLUG.sub("-", text.lower().replace("'", "")).strip("-")


@dataclass(slots=True, init=False)
class Parsed:
    """One event line read: an action, an expectation or a position line (``kind``)."""

    event: Event
    kind: str  # action, expect, setup
    action: Action | None = None
    what: str = ""
    monster: int | None = None
    values: list[Any] = field(default_factory=list)
    card_at: int = -1  # the index of the token naming the card (for the column of a message), if any

    def __init__(self, event: Event, kind: str, action: Action | None = None, what: str = "",
                 monster: int | None = None, values: list[Any] | None = None, card_at: int = -1) -> None:
        # written out: in the compiled build (docs/scale.md) dataclasses' own would be interpreted
        self.event = event
        self.kind = kind
        self.action = action
        self.what = what
        self.monster = monster
        self.values = [] if values is None else values
        self.card_at = card_at


Step = tuple[Event, Action, int]  # a common action line read: its event, the action, the monster that makes it
Item = Parsed | Step  # what ``Parser.read`` gives


def as_parsed(step: Step) -> Parsed:
    """The ``Parsed`` of a common action line (``Parser.read`` gives these as steps)."""
    ev, action, who = step
    return Parsed(ev, "action", action, "", who, None, 2 if isinstance(action, Buy) else -1)


def _hint(text: str, ids: dict[str, str]) -> str:
    """``; did you mean 'id'?`` for the ids whose names or ids are closest to a mistyped name."""
    close = closest(slug(text), ids, n=4)
    return suggest(list(dict.fromkeys(ids[k] for k in close))[:2])


class Parser(PlayerNames):
    """Reads the event lines of one game (its ruleset and players) into ``Parsed`` events (``read``: the
    common action lines as steps)."""

    def __init__(self, rs: KingOfTokyoRuleset, players: tuple[str, ...]) -> None:
        self.rs = rs
        super().__init__(players)
        self._marks: dict[str, str] | None = None
        ids = rs.derived.get("parse-ids")  # the same for every game of the ruleset: built once, never changed
        if ids is None:
            card_ids: dict[str, str] = {}
            for c in rs.cards:
                card_ids[c.id] = c.id
                card_ids[slug(c.name)] = c.id
            ids = rs.derived["parse-ids"] = (
                card_ids, {k: c.id for c in rs.tiles for k in (c.id, slug(c.name))},
                {k: c.id for c in rs.evolutions for k in (c.id, slug(c.name))},
                {k: v for k, v in card_ids.items() if slug(k) == k})
        self.card_ids: dict[str, str] = ids[0]
        self.tile_ids: dict[str, str] = ids[1]
        self.evo_ids: dict[str, str] = ids[2]
        self.slug_ids: dict[str, str] = ids[3]  # card_ids of the keys that are their own slug
        self.camouflage_lines = 0  # read so far (the replay looks for them only if there are some)

    def card(self, tok: Token) -> str:
        cid = self.card_ids.get(slug(tok.text))
        if cid is None:
            if not self.rs.cards:
                raise LogSyntaxError(f"{tok.text!r}: the {self.rs.edition.title} ships no card list; give the "
                                     "cards with --rules DIR (a file of kind cards with `edition: "
                                     f"{self.rs.edition.id}`; see docs/king-of-tokyo.md)", tok.col, "log-card")
            hint = _hint(tok.text, self.card_ids) or " (write its id, as `kbg rules kot cards --json` lists them)"
            raise LogSyntaxError(f"{tok.text!r} is not a card of this edition{hint}", tok.col, "log-card")
        return cid

    def tile(self, tok: Token) -> str:
        tid = self.tile_ids.get(slug(tok.text))
        if tid is None:
            why = ("wickedness tiles belong to the Dark Edition (@edition dark)" if not self.rs.tiles
                   else _hint(tok.text, self.tile_ids).lstrip("; ") or "kbg rules kot tiles --edition dark lists them")
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
                why = _hint(tok.text, self.evo_ids).lstrip("; ") or "no evolution has that name or id"
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
                raise LogSyntaxError(f"{t.text!r} is not a die face: use 1 2 3 e h s (energy, heart, smash)"
                                     + did_you_mean(t.text.lower(), FACE_ALIASES), t.col, "log-face")
            out.append(f)
        return tuple(out)

    def parse(self, ev: Event) -> Parsed:
        item = self.read(ev)
        return item if isinstance(item, Parsed) else as_parsed(item)

    def read(self, ev: Event) -> Item:
        """``parse``, with the common action lines as steps (no ``Parsed`` made for them)."""
        words = ev.words
        who = self.index.get(words[0])
        n = len(words)
        if who is not None and n >= 2:
            # the common, well-formed actions, read from the words alone (no columns needed): inlined
            verb = words[1]
            shared = _PLAIN.get(verb) if n == 2 else None  # actions are immutable: the same in every game
            if shared is not None:
                action = shared.get(who)
                if action is None:
                    action = shared[who] = (Keep() if verb == "keep" else EndTurn(who) if verb == "end"
                                            else Decide(who, verb == "yield"))
                return ev, action, who
            faces: tuple[str, ...]
            if verb == "roll":
                f = FACE_ALIASES  # a KeyError for a word that is no face (":", a face in capitals)
                try:
                    if n == 8:  # six dice, the most common
                        _, _, a, b, c, d, e, g = words
                        faces = (f[a], f[b], f[c], f[d], f[e], f[g])
                    else:
                        faces = _pick(*words[2:])(f) if n > 3 else (f[words[2]],) if n == 3 else ()
                except KeyError:
                    pass
                else:
                    return ev, Roll(faces), who
                fast = self.common_roll(ev, who, words)
                if fast is not None:
                    return fast
            elif verb == "reroll" and n > 3:
                try:  # every face at once ("" for ":"); a KeyError for a word that is no face (or in capitals)
                    faces = _pick(*words[2:])(_DIE)
                except KeyError:
                    faces = ()
                if faces.count("") == 1:
                    k = faces.index("")
                    return ev, Reroll(faces[:k], faces[k + 1:]), who
                fast = self.common_roll(ev, who, words)
                if fast is not None:
                    return fast
            elif n > 2:
                fast = self.common_action(ev, who, words)
                if fast is not None:
                    return fast
        elif who is None:
            line = self.common_line(ev, words)
            if line is not None:
                return line
        try:
            return self._parse(ev)
        except LogSyntaxError as exc:
            hint = self.spaced_name([x.text for x in ev.tokens[1:]])
            if not hint:
                raise
            raise LogSyntaxError(exc.message + hint, exc.col, exc.code) from None

    def spaced_name(self, words: list[str]) -> str:
        """``; names are written as one word...`` when words in a row of a line that cannot be read spell
        the name of a card, tile or evolution, or nearly (``Corner Store``); else nothing."""
        ids = {**self.evo_ids, **self.tile_ids, **self.card_ids}
        longest = max((k.count("-") + 1 for k in ids), default=1)  # the most words a name has
        runs = [words[i:i + n] for n in range(min(len(words), longest), 1, -1) for i in range(len(words) - n + 1)]
        runs = [r for r in runs if ":" not in r]
        for exact in (True, False):
            for run in runs:
                key = slug(" ".join(run))
                found = ids.get(key) if exact else next((ids[k] for k in closest(key, ids, n=1)), None)
                if found is not None:
                    return (f"; names are written as one word, their ids: write {found!r} for "
                            f"{' '.join(run)!r}")
        return ""

    def _parse(self, ev: Event) -> Parsed:
        t = ev.tokens
        head = t[0].text
        if head == "market":
            return Parsed(ev, "setup", what="market", values=[self.card(x) for x in t[1:]])
        if head == "first":
            if len(t) != 2:
                raise LogSyntaxError("expected: first NAME (the monster that won the roll for first player)", ev.col)
            return Parsed(ev, "setup", what="first", monster=self.player(t[1]), values=["start", (), {}])
        if head == "expect":
            return self.expect(ev)
        if head == "turn":
            return self.turn_line(ev)
        if head == "deck":
            return Parsed(ev, "setup", what=head, values=[self.card(x) for x in t[1:]])
        if head == "discard":  # cards, and wickedness tiles out of the game
            return Parsed(ev, "setup", what=head, values=[
                "tile:" + self.tile(x) if slug(x.text) in self.tile_ids and slug(x.text) not in self.card_ids
                else self.card(x) for x in t[1:]])
        if head == "tiles":
            return Parsed(ev, "setup", what="tiles", values=[self.tile(x) for x in t[1:]])
        if len(t) >= 2 and t[1].text == "is":
            return self.position(ev)
        who = self.player(t[0])
        verb = t[1].text.lower() if len(t) > 1 else ""  # verbs in any case: Roll, ROLL
        if verb not in VERBS:
            col = t[1].col if len(t) > 1 else ev.col
            hint = did_you_mean(verb, VERBS) if verb else ""
            raise LogSyntaxError(f"expected a verb after the monster: {', '.join(sorted(VERBS))}{hint}", col)
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
            self.camouflage_lines += 1
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

    def common_roll(self, ev: Event, who: int, words: list[str]) -> Step | None:
        """A roll or reroll with faces in capitals (``H``, ``Smash``), well-formed; else None."""
        faces = [_FACE(w) or _FACE(w.lower()) or "" for w in words[2:]]  # "" for ":" (or a word that is no face)
        gaps = faces.count("")
        if words[1] == "roll":
            return None if gaps else (ev, Roll(tuple(faces)), who)
        if gaps != 1 or words.count(":") != 1:
            return None
        k = faces.index("")
        return ev, Reroll(tuple(faces[:k]), tuple(faces[k + 1:])), who

    def common_line(self, ev: Event, words: list[str]) -> Parsed | None:
        """The common, well-formed lines that do not start with a monster (``expect NAME vp N``, ``expect
        winner NAME``, ``first NAME``, ``market CARD...``), read from the words alone; else None."""
        head = words[0]
        index = self.index
        if head == "expect":
            if len(words) == 4 and words[2] in _EXPECT_NUMBERS and words[1] not in _NOT_MONSTERS:
                who = index.get(words[1])
                n = words[3]
                if who is not None and n.isascii() and n.isdigit():
                    return Parsed(ev, "expect", None, words[2], who, [int(n)])
            elif len(words) >= 3 and (words[1] == "winner" or words[1] == "winners"):
                if words[2:] == ["none"]:
                    return Parsed(ev, "expect", None, "winner", None, [])
                winners = [index.get(w) for w in words[2:]]
                if None not in winners:
                    return Parsed(ev, "expect", None, "winner", None, winners)
        elif head == "first":
            who = index.get(words[1]) if len(words) == 2 else None
            if who is not None:
                return Parsed(ev, "setup", None, "first", who, ["start", (), {}])
        elif head == "market":
            cards = self.card_ids
            market = [cards.get(slug(w)) for w in words[1:]]
            if None not in market:
                return Parsed(ev, "setup", None, "market", None, market)
        return None

    def common_action(self, ev: Event, who: int, words: list[str]) -> Step | None:
        """Buying and sweeping, well-formed, read from the words alone (no columns needed); None for
        anything else, which ``parse`` reads (and reports) from the tokens (``parse`` reads rolls and
        the actions of one word itself)."""
        verb = words[1]
        cards = self.card_ids
        ids = self.slug_ids  # a word that is its own slug, looked up as it is
        if verb == "buy" and len(words) == 5 and words[3] == ":":
            w, r = words[2], words[4]
            bought, reveal = ids.get(w) or cards.get(slug(w)), ids.get(r) or cards.get(slug(r))
            if bought is None or reveal is None:
                return None
            return ev, Buy(who, bought, reveal), who
        if verb == "sweep" and len(words) >= 3 and words[2] == ":":
            reveals = []
            for w in words[3:]:
                cid = ids.get(w) or cards.get(slug(w))
                if cid is None:
                    return None
                reveals.append(cid)
            return ev, Sweep(who, tuple(reveals)), who
        return None

    def turn_line(self, ev: Event) -> Parsed:
        """``turn NAME [PHASE [FACES...] [KEY=VALUE...] [bought]]``: whose turn a position is at, and where in it.

        Values: the phase, the faces, and a dict of what else the line states (``rolls``, ``hit``, ``bought``)."""
        t = ev.tokens
        phase = t[2].text.lower() if len(t) >= 3 else "start"
        usage = ("expected: turn NAME [start|started|enter], turn NAME rolled FACES... [rolls=N], "
                 "turn NAME resolve FACES..., turn NAME decide FACES... hit=NAME:N,..., or turn NAME buy|end "
                 "[FACES...] [hit=NAME:N,...] [bought] (whose turn, and the moment a position starts at)")
        if len(t) < 2 or phase not in POSITION_PHASES:
            raise LogSyntaxError(usage, ev.col)
        faces: list[Token] = []
        extra: dict[str, Any] = {}
        for x in t[3:]:
            key, eq, value = x.text.partition("=")
            if x.text == "bought" and phase in ("buy", "end"):
                extra["bought"] = True
            elif eq and key == "rolls" and phase == "rolled":
                if not (value.isascii() and value.isdigit() and 0 < int(value) < 100):
                    raise LogSyntaxError("rolls=N: how many times the dice were rolled (1 for the first roll)", x.col)
                extra["rolls"] = int(value)
            elif eq and key == "hit" and phase in ("decide", "buy", "end"):
                hit: dict[int, int] = {}
                for item in value.split(","):
                    name, colon, n = item.partition(":")
                    if not (colon and n.isascii() and n.isdigit() and 0 < int(n) < 100):
                        raise LogSyntaxError("hit=NAME:N,...: the life each monster lost to the smashes", x.col)
                    who = self.player(Token(name, x.col))
                    if who in hit:
                        raise LogSyntaxError(f"hit=...: {name} is named twice", x.col)
                    hit[who] = int(n)
                extra["hit"] = hit
            elif eq or x.text == "bought":
                raise LogSyntaxError(f"{x.text!r} does not belong on a 'turn NAME {phase}' line; {usage}", x.col)
            else:
                faces.append(x)
        with_dice = phase in ("rolled", "resolve", "decide", "buy", "end")
        if (faces and not with_dice) or (phase in ("rolled", "resolve", "decide") and not faces
                                          and self.rs.standard_dice):
            raise LogSyntaxError(usage, ev.col)
        if phase == "decide" and "hit" not in extra:
            raise LogSyntaxError("a position at a decision says who the smashes hit: turn NAME decide FACES... "
                                 "hit=NAME:N,...", ev.col)
        return Parsed(ev, "setup", what="first", monster=self.player(t[1]),
                      values=["start" if phase == "roll" else phase, self.faces(faces), extra])

    def marks(self) -> dict[str, str]:
        """The words a monster line may carry for a lasting state a card of this game leaves (``zombified``),
        each with its hook's name."""
        if self._marks is None:
            from kbgrules.king_of_tokyo.hooks import HOOKS

            names = {c.hook for c in (*self.rs.cards, *self.rs.tiles, *self.rs.evolutions) if c.hook}
            self._marks = {HOOKS[n].mark: n for n in sorted(names) if n in HOOKS and HOOKS[n].mark}
        return self._marks

    def position(self, ev: Event) -> Parsed:
        """``NAME is hp=N vp=N energy=N place=city cards=a,b poison=N shrink=N smoke=N [eliminated]``."""
        t = ev.tokens
        who = self.player(t[0])
        state: dict[str, Any] = {}
        for x in t[2:]:
            if x.text == "eliminated":
                state["eliminated"] = True
                continue
            if "=" not in x.text and x.text in self.marks():
                state.setdefault("marks", []).append(self.marks()[x.text])
                continue
            key, eq, value = x.text.partition("=")
            if not eq or key not in STATE_KEYS:
                raise LogSyntaxError(f"{x.text!r}: write KEY=VALUE with KEY one of {', '.join(sorted(STATE_KEYS))}",
                                     x.col)
            if key in ("place", "began"):
                if value not in LOCATIONS:
                    raise LogSyntaxError(f"{key} is outside, city or bay", x.col)
                state[key] = value
            elif key in ("cards", "evolutions"):  # CARD, or CARD:N for a card holding N energy or tokens
                read = self.card if key == "cards" else self.evolution
                state[key] = []
                for c in value.split(","):
                    name, colon, n = c.partition(":")
                    if colon and not (name and n.isascii() and n.isdigit() and len(n) < 4):
                        raise LogSyntaxError(f"{c!r}: CARD:N gives the energy or tokens on a card (a number)", x.col)
                    if name:
                        state[key].append(read(Token(name, x.col)))
                    if colon and name:
                        state.setdefault("on", {})[state[key][-1]] = int(n)
            elif key == "tiles":
                state[key] = [self.tile(Token(c, x.col)) for c in value.split(",") if c]
            elif key in ("hand", "discarded", "bottom"):
                state[key] = [self.evolution(Token(c, x.col)) for c in value.split(",") if c]
            elif key == "owes":  # a draw or a tile due and not taken yet
                owes = value.split(",")
                if not all(o == "evolution" or (o.startswith("tile-") and o[5:].isascii() and o[5:].isdigit()
                                                and len(o) < 9) for o in owes):
                    raise LogSyntaxError("owes=evolution,tile-N: an evolution to draw, a tile of level N to take",
                                         x.col)
                state[key] = owes
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
        if len(t) >= 2 and t[1].text in GAME_CHECKS and t[1].text not in self.index:
            return self.game_check(ev)
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
        if len(t) == 4 and t[2].text in ("hp", "vp", "energy", "location", "max-life"):
            who = self.player(t[1])
            if t[2].text == "location":
                if t[3].text not in LOCATIONS:
                    raise LogSyntaxError("a location is outside, city or bay", t[3].col)
                return Parsed(ev, "expect", what="location", monster=who, values=[t[3].text])
            if not (t[3].text.isascii() and t[3].text.isdigit()):
                raise LogSyntaxError(f"{t[2].text} must be a number", t[3].col)
            return Parsed(ev, "expect", what=t[2].text, monster=who, values=[int(t[3].text)])
        raise LogSyntaxError("expected: expect NAME hp|vp|energy|max-life|poison|shrink|smoke|wickedness|dicetokens N, "
                             "expect NAME tiles|evolutions ID..., expect NAME location PLACE, "
                             "expect NAME eliminated|alive, expect NAME cards CARD..., expect tokyo city|bay NAME|-, "
                             "expect market|discard CARD..., expect deck|dice N, expect pending NAME...|none, "
                             "or expect winner NAME... | none", ev.col)

    def game_check(self, ev: Event) -> Parsed:
        """``expect market|discard CARD...``, ``expect deck|dice N``, ``expect pending NAME...|none``."""
        t = ev.tokens
        what = t[1].text
        rest = t[2:]
        if what in ("deck", "dice"):
            if len(rest) != 1 or not (rest[0].text.isascii() and rest[0].text.isdigit() and len(rest[0].text) < 4):
                raise LogSyntaxError(f"expected: expect {what} N (a number)", rest[0].col if rest else ev.col)
            return Parsed(ev, "expect", what=what, values=[int(rest[0].text)])
        if [x.text for x in rest] == ["none"]:
            return Parsed(ev, "expect", what=what, values=[])
        if what == "pending":
            return Parsed(ev, "expect", what=what, values=sorted({self.player(x) for x in rest}))
        return Parsed(ev, "expect", what=what, values=sorted(self.card(x) for x in rest))
