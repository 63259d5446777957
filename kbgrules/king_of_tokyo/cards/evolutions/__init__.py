"""Python hooks for King of Tokyo Power Up! evolution cards (see kbgrules.king_of_tokyo.hooks), one module per
monster; ``common`` holds what they share, and ``HOOKS`` here all of them.

An evolution's hook is called when it is played: ``use`` for a temporary one (with the arguments of
``NAME play CARD ARGS``), ``on_buy`` for a permanent one (then ``use`` too when the play line gives
arguments, so ``NAME play gamma-breath h`` plays the card and uses it at once). A permanent evolution in
play is used later with ``NAME use CARD ARGS``. ``may_play`` refuses a play before the card leaves the
hand.

Temporary evolutions whose effect lasts (Mecha Blast, Cat Nip, Cold Wave, Nine Lives) stay in front of
their owner, among its evolutions, until the effect ends; then they go to its discard pile.

Chance is given in the log, as for the dice of a roll: the cards an evolution turns over (Precision
Field Support, Deep Dive, Miraculous Catch) and the dice it rolls (Lightning Armor) are arguments of its
``play``/``use`` line, checked against the deck (copies left, a stated order) and the loss being answered.
Monkey Rush and Feline Motor are played right after the active monster's dice resolve: the replay takes
back its Enter Tokyo step (``KingOfTokyoState.enter_snapshot``) and enters the owner first.

Choices are arguments too: Icy Reflection names the evolution it copies (``Monster.icy``; the engine's
``in_play`` adds the copy, and hooks that discard their own card use ``common._expire_own``), Superior Alien
Technology's half-price buy names the card and its replacement (``Monster.ufo`` lists the marked cards;
the owner's first roll waits for the UFO dice, ``Hook.before_roll``), and Bamboozle stands in place of
the buy it stops and names the card bought instead.

Freeze Ray changes hands (``StateBase.freeze_rays``: the owner names the face at the start of the
holder's turn, ``use freeze-ray FACE``) and Encased in Ice freezes a die across the other monsters' turns
(``StateBase.ice_die``); the engine's dice code enforces both (``DiceRules._frozen_roll``).
"""

from __future__ import annotations

from kbgrules.king_of_tokyo.cards.evolutions import (
    alienoid,
    cyber_kitty,
    gigazaur,
    meka_dragon,
    pandakai,
    space_penguin,
    the_king,
)
from kbgrules.king_of_tokyo.hooks import Hook, register

DECKS = (the_king, gigazaur, meka_dragon, alienoid, space_penguin, cyber_kitty, pandakai)  # a module per monster

HOOKS: dict[str, Hook] = {name: hook for deck in DECKS for name, hook in deck.HOOKS.items()}

register(__name__, HOOKS)
