"""The Kingdomino ruleset: terrains, dominoes, the setup table and the numbers the rules use,
built from the effective data tree."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kbgrules.core import args
from kbgrules.core.build import common_fields, sources, strs
from kbgrules.core.effective import Resolved
from kbgrules.core.model import Ruleset, Source
from kbgrules.errors import KbgError


def slot_setters(cls: type, *names: str) -> tuple[Any, ...] | None:
    """The setters of the slots ``names`` of a frozen dataclass, or None when it is compiled (mypyc). For
    speed: an instance from ``object.__new__`` filled by them costs half its ``__init__`` (``object.__setattr__``)."""
    setters = tuple(vars(cls).get(name) for name in names)
    if not all(type(s).__name__ == "member_descriptor" for s in setters):
        return None
    return tuple(getattr(s, "__set__") for s in setters)  # noqa: B009 (the slot's own __set__)


def slot_shell(cls: type) -> type | None:
    """A plain class with the slots of the frozen dataclass ``cls``, or None when it is compiled (mypyc). For
    speed: an instance of it filled by plain assignments, then given ``__class__ = cls``, is a ``cls`` made
    at half the cost of :func:`slot_setters`'."""
    slots = tuple(vars(cls).get("__slots__", ()))
    if not slots or slot_setters(cls, *slots) is None:
        return None
    shell = type(f"_{cls.__name__}Shell", (), {"__slots__": slots})
    probe: Any = object.__new__(shell)
    try:
        probe.__class__ = cls  # the same layout, or a TypeError
    except TypeError:  # pragma: no cover - slots alone make the layout
        return None
    return shell


@dataclass(frozen=True, slots=True)
class Terrain:
    id: str
    letter: str
    name: str
    aliases: tuple[str, ...] = ()
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class Half:
    """One square of a domino: a terrain id and a number of crowns."""

    terrain: str
    crowns: int


@dataclass(frozen=True, slots=True)
class Domino:
    number: int
    first: Half
    second: Half

    @property
    def halves(self) -> tuple[Half, Half]:
        return (self.first, self.second)

    @property
    def crowns(self) -> int:
        return self.first.crowns + self.second.crowns


@dataclass(frozen=True, slots=True)
class KingdominoSetup:
    """One row of the setup table. ``rounds`` is the number of lines drawn."""

    players: int
    kings_per_player: int
    dominoes_used: int
    dominoes_removed: int
    line_size: int
    rounds: int
    leftover_per_line: int
    sources: tuple[Source, ...]

    @property
    def kings_in_play(self) -> int:
        return self.players * self.kings_per_player

    @property
    def dominoes_per_player(self) -> int:
        return self.rounds * self.kings_per_player


@dataclass(frozen=True, slots=True)
class Bonus:
    id: str
    points: int
    active: bool
    reading: str


@dataclass(frozen=True, slots=True, kw_only=True)
class KingdominoRuleset(Ruleset):
    colours: tuple[str, ...]
    terrains: tuple[Terrain, ...]
    max_crowns_per_square: int
    dominoes: tuple[Domino, ...]
    setup_table: Mapping[int, KingdominoSetup]
    kingdom_size: int
    castle_wild: bool
    min_matching_edges: int
    diagonal_connects: bool
    discard: str
    bonuses: Mapping[str, Bonus]
    tiebreak: tuple[str, ...]
    games_per_match: int
    first_player_text: str
    first_player_method: str
    lines_text: str
    # tables the engine derives from this ruleset's data on first use (never part of the rules themselves;
    # shared by the loads for each player count: nothing in it depends on the count)
    derived: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def setup(self) -> KingdominoSetup:
        """The setup row for ``players`` (raises PlayerCountError without a player count)."""
        return self.setup_table[self._need_players()]

    def domino(self, number: int) -> Domino:
        args.count(number, "number")
        for d in self.dominoes:
            if d.number == number:
                return d
        raise KbgError(f"no domino numbered {number}", code="unknown-domino")

    def terrain(self, key: str) -> Terrain:
        """A terrain by id, letter or alias."""
        args.text(key, "key")
        k = key.casefold()
        for t in self.terrains:
            if k in (t.id, t.letter.casefold(), t.name.casefold(), *(a.casefold() for a in t.aliases)):
                return t
        raise KbgError(f"unknown terrain {key!r}", code="unknown-terrain")


def _half(code: str, letters: Mapping[str, str]) -> Half:
    return Half(letters[code[0]], int(code[1:]))


def build(res: Resolved) -> KingdominoRuleset:
    """The Kingdomino ruleset of an effective data tree."""
    t = res.tree
    terrains = tuple(Terrain(str(x["id"]), str(x["letter"]), str(x["name"]), strs(x.get("aliases")),
                             x.get("colour")) for x in t["terrains"])
    letters = {x.letter: x.id for x in terrains}
    dominoes = tuple(Domino(int(d["number"]), _half(d["first"], letters), _half(d["second"], letters))
                     for d in t.get("dominoes") or ())
    setup = {
        int(k): KingdominoSetup(
            players=int(k), kings_per_player=int(r["kings_per_player"]), dominoes_used=int(r["dominoes_used"]),
            dominoes_removed=int(r["dominoes_removed"]), line_size=int(r["line_size"]), rounds=int(r["rounds"]),
            leftover_per_line=int(r["leftover_per_line"]), sources=sources(r.get("sources")))
        for k, r in t["setup"].items()
    }
    p, s = t["placement"], t["scoring"]
    bonuses = {k: Bonus(k, int(b["points"]), bool(b["active"]), str(b["reading"]))
               for k, b in (s.get("bonuses") or {}).items()}
    return KingdominoRuleset(
        **common_fields(res),
        colours=strs(t.get("colours")), terrains=terrains,
        max_crowns_per_square=int(t.get("max_crowns_per_square", 3)), dominoes=dominoes,
        setup_table=MappingProxyType(dict(sorted(setup.items()))),
        kingdom_size=int(p["kingdom_size"]), castle_wild=bool(p["castle_wild"]),
        min_matching_edges=int(p["min_matching_edges"]), diagonal_connects=bool(p["diagonal_connects"]),
        discard=str(p["discard"]), bonuses=MappingProxyType(bonuses), tiebreak=strs(s["tiebreak"]),
        games_per_match=int(t["match"]["games"]),
        first_player_text=str(t["first_player"]["text"]).strip(), lines_text=str(t["lines"]["text"]).strip(),
        first_player_method=str(t["first_player"]["method"]),
    )
