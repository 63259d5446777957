"""King of Tokyo: the game's package.

- :mod:`~kbgrules.king_of_tokyo.model`: the ruleset (dice, Tokyo, market, cards, tiles, evolutions);
- :mod:`~kbgrules.king_of_tokyo.state`: the game state a log replays;
- :mod:`~kbgrules.king_of_tokyo.cards`: the hooks of the cards whose effects need code, by box;
- :mod:`~kbgrules.king_of_tokyo.log`: reading and checking King of Tokyo logs;
- :mod:`~kbgrules.king_of_tokyo.setup`, :mod:`~kbgrules.king_of_tokyo.simulate`: the setup sheet, random games;
- :mod:`~kbgrules.king_of_tokyo.engine`: ``ENGINE``, how the core reaches all of it.
"""

from kbgrules.king_of_tokyo.engine import ENGINE

__all__ = ["ENGINE"]
