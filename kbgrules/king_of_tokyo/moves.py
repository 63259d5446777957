"""King of Tokyo moves: the dice faces, the actions a log (or a player) gives the game state, and the errors
an action can raise besides an illegal move.

Chance outcomes (dice faces, revealed cards, evolutions drawn) are parts of the actions, so a replay
never rolls or shuffles.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from kbgrules.core.compiled import mypyc_attr
from kbgrules.core.model import violation as violation  # re-exported: the game's modules raise it
from kbgrules.errors import KbgError

FACES: Final = ("1", "2", "3", "energy", "heart", "smash")
FACE_ALIASES: Final = {
    "1": "1", "2": "2", "3": "3", "e": "energy", "energy": "energy", "lightning": "energy", "bolt": "energy",
    "h": "heart", "heart": "heart", "heal": "heart", "health": "heart", "s": "smash", "smash": "smash",
    "claw": "smash", "attack": "smash",
}
SHORT: Final = {"1": "1", "2": "2", "3": "3", "energy": "e", "heart": "h", "smash": "s"}


_COUNTS: Final[dict[tuple[str, ...], dict[str, int]]] = {}


def face_counts(dice: Iterable[str]) -> Mapping[str, int]:
    """How many of ``dice`` show each face (every face is there, 0 when none shows it); one table per
    set of faces, shared (there are 1,287 sets of up to 8 dice): read it, never change it."""
    key = tuple(sorted(dice))
    found = _COUNTS.get(key)
    if found is None:
        found = dict.fromkeys(FACES, 0)
        for f in key:
            found[f] += 1  # a word that is no face: KeyError, as before
        if len(key) <= 8:
            _COUNTS[key] = found
    return found


def face(text: str) -> str | None:
    """The face id for a word or letter (``s``, ``claw``, ``3``), or None."""
    return FACE_ALIASES.get(text.lower())


class ChanceNeeded(Exception):
    """Camouflage: ``monster`` is about to lose ``count`` life and its dice for that are not known yet.

    The state is left as it was before the action; give the dice with
    :meth:`KingOfTokyoState.camouflage_roll` and apply the same action again.
    """

    def __init__(self, monster: int, count: int) -> None:
        super().__init__(f"monster {monster} rolls {count} dice for Camouflage")
        self.monster = monster
        self.count = count


@mypyc_attr(native_class=False)  # compiled as a native class, it would lose the class attribute code
class UnsupportedCardError(KbgError):
    """A card whose effect the checker cannot replay yet (it names a hook that is not written)."""

    code = "kot-unsupported-card"


# --------------------------------------------------------------------------- actions
# The actions write their methods out, dataclasses only freezing them: in the compiled build (docs/scale.md)
# the methods dataclasses generates would run as interpreted code, and generating them costs start-up time.


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Roll:
    """Chance: the first roll of a turn, the face of every die."""

    faces: tuple[str, ...]

    def __init__(self, faces: tuple[str, ...]) -> None:
        object.__setattr__(self, "faces", faces)

    def __repr__(self) -> str:
        return f"Roll(faces={self.faces!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Roll)
        return (self.faces,) == (other.faces,)

    def __hash__(self) -> int:
        return hash((self.faces,))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Reroll:
    """Re-roll the dice showing ``dice`` (faces, one per die) and the chance outcome ``faces``."""

    dice: tuple[str, ...]
    faces: tuple[str, ...]

    def __init__(self, dice: tuple[str, ...], faces: tuple[str, ...]) -> None:
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "faces", faces)

    def __repr__(self) -> str:
        return f"Reroll(dice={self.dice!r}, faces={self.faces!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Reroll)
        return (self.dice, self.faces) == (other.dice, other.faces)

    def __hash__(self) -> int:
        return hash((self.dice, self.faces))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Keep:
    """Stop rolling: the dice showing now are the results."""

    def __init__(self) -> None:
        pass

    def __repr__(self) -> str:
        return "Keep()"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return True

    def __hash__(self) -> int:
        return hash(())


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Decide:
    """A monster in Tokyo, damaged by smashes, yields or stays."""

    monster: int
    yields: bool

    def __init__(self, monster: int, yields: bool) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "yields", yields)

    def __repr__(self) -> str:
        return f"Decide(monster={self.monster!r}, yields={self.yields!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Decide)
        return (self.monster, self.yields) == (other.monster, other.yields)

    def __hash__(self) -> int:
        return hash((self.monster, self.yields))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Buy:
    """Buy from the market (``reveal`` replaces it), the top of the deck (Made in a Lab: ``top``),
    or another monster (Parasitic Tentacles: ``seller``)."""

    monster: int
    card: str
    reveal: str | None  # the card revealed to replace it (None when the deck is empty)
    top: bool = False
    seller: int | None = None

    def __init__(self, monster: int, card: str, reveal: str | None,
                 top: bool = False, seller: int | None = None) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "reveal", reveal)
        object.__setattr__(self, "top", top)
        object.__setattr__(self, "seller", seller)

    def __repr__(self) -> str:
        return (f"Buy(monster={self.monster!r}, card={self.card!r}, reveal={self.reveal!r}, "
                f"top={self.top!r}, seller={self.seller!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Buy)
        return (self.monster, self.card, self.reveal, self.top, self.seller) == \
            (other.monster, other.card, other.reveal, other.top, other.seller)

    def __hash__(self) -> int:
        return hash((self.monster, self.card, self.reveal, self.top, self.seller))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Sweep:
    """Pay to sweep the market: its cards are discarded and ``reveals`` replace them."""

    monster: int
    reveals: tuple[str, ...]

    def __init__(self, monster: int, reveals: tuple[str, ...]) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "reveals", reveals)

    def __repr__(self) -> str:
        return f"Sweep(monster={self.monster!r}, reveals={self.reveals!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Sweep)
        return (self.monster, self.reveals) == (other.monster, other.reveals)

    def __hash__(self) -> int:
        return hash((self.monster, self.reveals))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class EndTurn:
    """End the turn of ``monster``."""

    monster: int

    def __init__(self, monster: int) -> None:
        object.__setattr__(self, "monster", monster)

    def __repr__(self) -> str:
        return f"EndTurn(monster={self.monster!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, EndTurn)
        return (self.monster,) == (other.monster,)

    def __hash__(self) -> int:
        return hash((self.monster,))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Use:
    """A card's optional action: ``NAME use CARD ARGS...`` (see kbgrules.king_of_tokyo.cards.base)."""

    monster: int
    card: str
    args: tuple[str, ...] = ()

    def __init__(self, monster: int, card: str, args: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "args", args)

    def __repr__(self) -> str:
        return f"Use(monster={self.monster!r}, card={self.card!r}, args={self.args!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Use)
        return (self.monster, self.card, self.args) == (other.monster, other.card, other.args)

    def __hash__(self) -> int:
        return hash((self.monster, self.card, self.args))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Cure:
    """Spend heart results to remove Poison or Shrink tokens instead of healing (outside Tokyo)."""

    monster: int
    token: str  # "poison" or "shrink"
    count: int = 1

    def __init__(self, monster: int, token: str, count: int = 1) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "token", token)
        object.__setattr__(self, "count", count)

    def __repr__(self) -> str:
        return f"Cure(monster={self.monster!r}, token={self.token!r}, count={self.count!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Cure)
        return (self.monster, self.token, self.count) == (other.monster, other.token, other.count)

    def __hash__(self) -> int:
        return hash((self.monster, self.token, self.count))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Take:
    """Dark Edition: take a wickedness tile (after reaching a threshold of the gauge)."""

    monster: int
    tile: str

    def __init__(self, monster: int, tile: str) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "tile", tile)

    def __repr__(self) -> str:
        return f"Take(monster={self.monster!r}, tile={self.tile!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Take)
        return (self.monster, self.tile) == (other.monster, other.tile)

    def __hash__(self) -> int:
        return hash((self.monster, self.tile))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Evolve:
    """Chance and choice: draw evolutions (``drawn``; "?" for a secret card) and keep ``kept``."""

    monster: int
    drawn: tuple[str, ...]
    kept: tuple[str, ...]

    def __init__(self, monster: int, drawn: tuple[str, ...], kept: tuple[str, ...]) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "kept", kept)

    def __repr__(self) -> str:
        return f"Evolve(monster={self.monster!r}, drawn={self.drawn!r}, kept={self.kept!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Evolve)
        return (self.monster, self.drawn, self.kept) == (other.monster, other.drawn, other.kept)

    def __hash__(self) -> int:
        return hash((self.monster, self.drawn, self.kept))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Play:
    """Play an evolution from the hand: ``NAME play CARD ARGS...``."""

    monster: int
    card: str
    args: tuple[str, ...] = ()

    def __init__(self, monster: int, card: str, args: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "args", args)

    def __repr__(self) -> str:
        return f"Play(monster={self.monster!r}, card={self.card!r}, args={self.args!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Play)
        return (self.monster, self.card, self.args) == (other.monster, other.card, other.args)

    def __hash__(self) -> int:
        return hash((self.monster, self.card, self.args))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Tokens:
    """Godzilla edition: spend dice tokens before the first roll for that many extra dice."""

    monster: int
    count: int

    def __init__(self, monster: int, count: int) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "count", count)

    def __repr__(self) -> str:
        return f"Tokens(monster={self.monster!r}, count={self.count!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Tokens)
        return (self.monster, self.count) == (other.monster, other.count)

    def __hash__(self) -> int:
        return hash((self.monster, self.count))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Camouflage:
    """Chance: the dice a Camouflage holder rolls for the life it is about to lose (one per life point)."""

    monster: int
    faces: tuple[str, ...]

    def __init__(self, monster: int, faces: tuple[str, ...]) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "faces", faces)

    def __repr__(self) -> str:
        return f"Camouflage(monster={self.monster!r}, faces={self.faces!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Camouflage)
        return (self.monster, self.faces) == (other.monster, other.faces)

    def __hash__(self) -> int:
        return hash((self.monster, self.faces))


@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Setup:
    """A set-up or position line (``first NAME``, ``market CARD...``, ``tiles ...``, ``NAME evolutions ...``,
    ``NAME is ...``, ``deck``, ``discard``, ``turn NAME ...``): ``what`` it states, as the log writes it
    (``text``). The draws of the set-up are chance outcomes."""

    what: str
    text: str
    monster: int | None = None
    values: tuple[str, ...] = ()

    def __init__(self, what: str, text: str, monster: int | None = None, values: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "what", what)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "values", values)

    def __repr__(self) -> str:
        return f"Setup(what={self.what!r}, text={self.text!r}, monster={self.monster!r}, values={self.values!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Setup)
        return (self.what, self.text, self.monster, self.values) == \
            (other.what, other.text, other.monster, other.values)

    def __hash__(self) -> int:
        return hash((self.what, self.text, self.monster, self.values))


Action = Roll | Reroll | Keep | Decide | Buy | Sweep | EndTurn | Use | Cure | Take | Evolve | Play | Tokens


def move_line(move: Action | Camouflage | Setup, names: tuple[str, ...] | list[str], active: int) -> str:
    """``move`` as its log line, ``active`` being the monster whose turn it is when it is played (the
    one line writer: the game object, the simulator and position texts use it)."""
    if isinstance(move, Setup):
        return move.text

    def faces(fs: Iterable[str]) -> str:
        return " ".join(SHORT[f] for f in fs)

    def args(a: Iterable[str]) -> str:
        return "".join(f" {x}" for x in a)

    if isinstance(move, Roll):
        return f"{names[active]} roll {faces(move.faces)}".rstrip()
    if isinstance(move, Reroll):
        return f"{names[active]} reroll {faces(move.dice)} : {faces(move.faces)}".rstrip()
    if isinstance(move, Keep):
        return f"{names[active]} keep"
    if isinstance(move, Camouflage):
        return f"{names[move.monster]} camouflage {faces(move.faces)}"
    if isinstance(move, Decide):
        return f"{names[move.monster]} {'yield' if move.yields else 'stay'}"
    if isinstance(move, EndTurn):
        return f"{names[move.monster]} end"
    if isinstance(move, Buy):
        who = names[move.monster]
        if move.top:
            return f"{who} buy top {move.card}"
        if move.seller is not None:
            return f"{who} buy {move.card} from {names[move.seller]}"
        return f"{who} buy {move.card}" + (f" : {move.reveal}" if move.reveal else "")
    if isinstance(move, Sweep):
        return f"{names[move.monster]} sweep : {' '.join(move.reveals)}".rstrip()
    if isinstance(move, Use):
        return f"{names[move.monster]} use {move.card}{args(move.args)}"
    if isinstance(move, Play):
        return f"{names[move.monster]} play {move.card}{args(move.args)}"
    if isinstance(move, Cure):
        return f"{names[move.monster]} cure {move.token}" + (f" {move.count}" if move.count != 1 else "")
    if isinstance(move, Take):
        return f"{names[move.monster]} take {move.tile}"
    if isinstance(move, Tokens):
        return f"{names[move.monster]} tokens {move.count}"
    if isinstance(move, Evolve):
        line = f"{names[move.monster]} evolve {' '.join(move.drawn)}"
        if len(move.drawn) > len(move.kept) and "?" not in move.drawn:
            line += f" keep {' '.join(move.kept)}"
        return line
    raise TypeError(f"not a King of Tokyo move: {move!r}")

