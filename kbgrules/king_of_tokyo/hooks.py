"""Card hooks: ``Hook``, the base class of the code behind a card whose effect the data vocabulary cannot
express, and ``HOOKS``, the registry of hooks by name.

A card in the rule data names its hook (``hook: energy_drink``); the state calls the hook's methods at
fixed points. The card modules listed in ``PLUGINS`` register their hooks here, and the registry imports
them the first time it is read: the state reads the registry and never imports a card module. A card
whose hook is not registered makes the checker stop with ``kot-unsupported-card``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from kbgrules.king_of_tokyo.monster import Monster
    from kbgrules.king_of_tokyo.statebase import StateBase

PLUGINS = (
    "kbgrules.king_of_tokyo.cards.base",
    "kbgrules.king_of_tokyo.cards.dark",
    "kbgrules.king_of_tokyo.cards.evolutions",
)


class Hook:
    """The code of a card, called by the state at fixed points (``st``: the state, ``m`` or ``i``: the
    card's owner). Default behaviour: nothing happens, and the card has no ``use`` action."""

    card = ""
    after_roll = False  # a use by the active monster ends its rolling first (the dice are resolved)
    zero_life_order = 0  # on_zero_life hooks are asked in this order (Final Roar -2, Zombify -1)
    holds = False  # a number of energy or tokens lies on the card (Battery Monster): a position writes CARD:N
    mark = ""  # a lasting state the card leaves on its owner, a word of a position's monster line (zombified)

    def is_marked(self, m: Monster) -> bool:
        """Whether ``m`` bears this card's ``mark``."""
        return False

    def put_mark(self, m: Monster) -> None:
        """Give ``m`` this card's ``mark``, as a position states it."""

    def on_buy(self, st: StateBase, m: Monster) -> None:
        """Just bought (a keep card is already among the monster's cards)."""

    def on_turn_start(self, st: StateBase, m: Monster) -> None:
        """The owner's turn starts."""

    def before_turn_start(self, st: StateBase, m: Monster) -> None:
        """The owner's turn starts, before the data effects of its cards and tiles (Nanobots)."""

    def before_roll(self, st: StateBase, m: Monster) -> None:
        """The owner is about to make its first roll: raise (st.illegal) if something must come first.

        It changes nothing (a roll makes no monster lose life: the engine keeps no Camouflage undo for it)."""

    def resolve_dice(self, st: StateBase, m: Monster, dice: list[str]) -> list[str]:
        """The owner's dice are about to resolve: return the faces that take effect (Hibernation)."""
        return dice

    def on_zero_life(self, st: StateBase, i: int) -> bool:
        """The owner reached 0 life; True if the hook saved it from elimination."""
        return False

    def on_yield(self, st: StateBase, i: int) -> None:
        """The owner yields Tokyo."""

    def on_enter(self, st: StateBase, m: Monster) -> None:
        """The owner has just moved into Tokyo."""

    def on_stay(self, st: StateBase, i: int) -> None:
        """The owner, hurt by smashes in Tokyo, chose to stay."""

    def before_damage(self, st: StateBase, i: int, amount: int, source: int | None) -> int:
        """The owner (monster ``i``) is about to lose ``amount`` life; return the amount it loses."""
        return amount

    def after_damage(self, st: StateBase, i: int, lost: int, source: int | None) -> None:
        """The owner (monster ``i``) has just lost ``lost`` life (``source``: the monster behind it)."""

    def dealt_damage(self, st: StateBase, owner: int, victim: int, lost: int) -> None:
        """The owner made ``victim`` lose ``lost`` life (smashes or a card)."""

    def on_resolve(self, st: StateBase, m: Monster, smashes: int) -> int:
        """The owner's dice resolve (numbers, energy and hearts are done); returns the smash count."""
        return smashes

    def on_turn_end(self, st: StateBase, active: int) -> None:
        """A turn ends (``st.active``: whose); called for every holder, ``active`` is the holder's index."""

    def may_enter(self, st: StateBase, m: Monster) -> bool:
        """False keeps the owner out of an empty Tokyo."""
        return True

    def may_buy(self, st: StateBase, m: Monster, card: str) -> None:
        """Raise (st.illegal) if the owner may not buy ``card`` now."""

    def may_be_bought(self, st: StateBase, m: Monster) -> None:
        """Raise (st.illegal) if ``m`` may not buy this hook's card now (Hibernation: outside Tokyo only)."""

    def free_reroll(self, st: StateBase, m: Monster, dice: Sequence[str]) -> bool:
        """True if re-rolling ``dice`` costs no roll (it changes nothing, like ``before_roll``)."""
        return False

    def on_smash_damage(self, st: StateBase, victim: int) -> None:
        """The owner's smashes just took life from ``victim``."""

    def deal_damage(self, st: StateBase, owner: int, victim: int, amount: int) -> int:
        """The owner is about to make ``victim`` lose ``amount`` life (``st.smashing == victim`` for its
        smashes); return the amount (before the victim's own cards)."""
        return amount

    def others_max_rolls(self, st: StateBase, owner: int) -> int | None:
        """A cap on the rolls of the active monster when it is not the owner (Blizzard), or None (it changes
        nothing, like ``before_roll``)."""
        return None

    def may_yield(self, st: StateBase, owner: int, i: int) -> None:
        """Raise (st.illegal) if monster ``i`` (not the owner) may not yield Tokyo now (Blizzard)."""

    def may_play(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        """Raise (st.illegal) if monster ``i`` may not play this evolution now (it is still in the hand)."""

    def use(self, st: StateBase, i: int, args: Sequence[str]) -> None:
        raise st.illegal("kot-card-use", card=st.cards[self.card].name, why="it has nothing to use")


HOOK_POINTS: Final = tuple(name for name, value in vars(Hook).items() if callable(value) and not name.startswith("_"))


class HookRegistry(MutableMapping[str, Hook]):
    """Hooks by name. The modules ``plugins`` are imported on the first read; each registers its hooks."""

    def __init__(self, plugins: Sequence[str]) -> None:
        self.plugins = tuple(plugins)
        self._hooks: dict[str, Hook] = {}
        self._by_module: dict[str, Mapping[str, Hook]] = {}
        self._loaded = False
        self._version = 0

    def register(self, module: str, hooks: Mapping[str, Hook]) -> None:
        """Add the hooks of ``module`` (its dotted name); no name may be registered twice."""
        clash = set(hooks) & set(self._hooks)
        assert not clash, clash
        self._by_module[module] = hooks
        self._hooks.update(hooks)
        self._version += 1

    def _load(self) -> dict[str, Hook]:
        if not self._loaded:
            self._loaded = True  # before the imports: a plugin that reads the registry as it loads sees it as is
            try:
                for name in self.plugins:
                    importlib.import_module(name)
            except BaseException:
                self._loaded = False  # the next read tries again
                raise
            first = [name for module in self.plugins for name in self._by_module.get(module, ())]
            self._hooks = {name: self._hooks[name] for name in [*first, *self._hooks]}  # in the order of plugins
        return self._hooks

    @property
    def version(self) -> int:
        """Changes whenever a hook is added or removed (tables built from the hooks go stale)."""
        self._load()
        return self._version

    def __getitem__(self, name: str) -> Hook:
        return self._load()[name]

    def __contains__(self, name: object) -> bool:
        return name in self._load()

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __setitem__(self, name: str, hook: Hook) -> None:
        self._load()[name] = hook
        self._version += 1

    def __delitem__(self, name: str) -> None:
        del self._load()[name]
        self._version += 1

    def __repr__(self) -> str:
        return f"HookRegistry({self._load()!r})"


HOOKS: Final = HookRegistry(PLUGINS)


def register(module: str, hooks: Mapping[str, Hook]) -> None:
    """Called by each card module (``PLUGINS``) as it loads, with its ``__name__``: its hooks, by the names
    the rule data gives."""
    HOOKS.register(module, hooks)


def supported(cards: Mapping[str, Any], key: str) -> bool:
    """Whether the engine plays the card, tile or evolution ``key``: it needs no code, or its hook is written."""
    hook = cards[key].hook
    return hook is None or hook in HOOKS


def usable(cards: Mapping[str, Any], key: str) -> bool:
    """Whether a card may be used at all: its hook is written and has a ``use`` (any other use fails)."""
    name = cards[key].hook
    hook = HOOKS.get(name) if name is not None else None
    return hook is not None and type(hook).use is not Hook.use
