"""King of Tokyo moves: the dice faces, the actions a log (or a player) gives the game state, and the errors
an action can raise besides an illegal move.

Chance outcomes (dice faces, revealed cards, evolutions drawn) are parts of the actions, so a replay
never rolls or shuffles.
"""

from __future__ import annotations

from collections.abc import Iterable
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


def face_counts(dice: Iterable[str]) -> dict[str, int]:
    """How many of ``dice`` show each face (every face is there, 0 when none shows it)."""
    counts = dict.fromkeys(FACES, 0)
    for f in dice:
        counts[f] += 1
    return counts


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
# The frequent actions write their __init__ out: in the compiled build (docs/scale.md) the one
# dataclasses generates would run as interpreted code.


@dataclass(frozen=True, slots=True, init=False)
class Roll:
    """Chance: the first roll of a turn, the face of every die."""

    faces: tuple[str, ...]

    def __init__(self, faces: tuple[str, ...]) -> None:
        object.__setattr__(self, "faces", faces)


@dataclass(frozen=True, slots=True, init=False)
class Reroll:
    """Re-roll the dice showing ``dice`` (faces, one per die) and the chance outcome ``faces``."""

    dice: tuple[str, ...]
    faces: tuple[str, ...]

    def __init__(self, dice: tuple[str, ...], faces: tuple[str, ...]) -> None:
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "faces", faces)


@dataclass(frozen=True, slots=True)
class Keep:
    """Stop rolling: the dice showing now are the results."""


@dataclass(frozen=True, slots=True, init=False)
class Decide:
    """A monster in Tokyo, damaged by smashes, yields or stays."""

    monster: int
    yields: bool

    def __init__(self, monster: int, yields: bool) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "yields", yields)


@dataclass(frozen=True, slots=True, init=False)
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


@dataclass(frozen=True, slots=True, init=False)
class Sweep:
    monster: int
    reveals: tuple[str, ...]

    def __init__(self, monster: int, reveals: tuple[str, ...]) -> None:
        object.__setattr__(self, "monster", monster)
        object.__setattr__(self, "reveals", reveals)


@dataclass(frozen=True, slots=True, init=False)
class EndTurn:
    monster: int

    def __init__(self, monster: int) -> None:
        object.__setattr__(self, "monster", monster)


@dataclass(frozen=True, slots=True)
class Use:
    """A card's optional action: ``NAME use CARD ARGS...`` (see kbgrules.king_of_tokyo.cards.base)."""

    monster: int
    card: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Cure:
    """Spend heart results to remove Poison or Shrink tokens instead of healing (outside Tokyo)."""

    monster: int
    token: str  # "poison" or "shrink"
    count: int = 1


@dataclass(frozen=True, slots=True)
class Take:
    """Dark Edition: take a wickedness tile (after reaching a threshold of the gauge)."""

    monster: int
    tile: str


@dataclass(frozen=True, slots=True)
class Evolve:
    """Chance and choice: draw evolutions (``drawn``; "?" for a secret card) and keep ``kept``."""

    monster: int
    drawn: tuple[str, ...]
    kept: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Play an evolution from the hand: ``NAME play CARD ARGS...``."""

    monster: int
    card: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tokens:
    """Godzilla edition: spend dice tokens before the first roll for that many extra dice."""

    monster: int
    count: int


@dataclass(frozen=True, slots=True)
class Camouflage:
    """Chance: the dice a Camouflage holder rolls for the life it is about to lose (one per life point)."""

    monster: int
    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Setup:
    """A set-up or position line (``first NAME``, ``market CARD...``, ``tiles ...``, ``NAME evolutions ...``,
    ``NAME is ...``, ``deck``, ``discard``, ``turn NAME ...``): ``what`` it states, as the log writes it
    (``text``). The draws of the set-up are chance outcomes."""

    what: str
    text: str
    monster: int | None = None
    values: tuple[str, ...] = ()


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

