"""Kingdomino: the game's package.

- :mod:`~kbgrules.kingdomino.model`: the ruleset (terrains, dominoes, setup table, scoring numbers);
- :mod:`~kbgrules.kingdomino.kingdom`: kingdoms, cells, placement, properties and scores;
- :mod:`~kbgrules.kingdomino.board`: the cells' names in logs (``e5``);
- :mod:`~kbgrules.kingdomino.state`: the game state a log replays (the draft, the kings, the moves);
- :mod:`~kbgrules.kingdomino.game`: the game object for code (moves in log notation, push and pop);
- :mod:`~kbgrules.kingdomino.chance`: the chance moves (deals, the draw of kings) and their odds;
- :mod:`~kbgrules.kingdomino.log`: reading and checking Kingdomino logs;
- :mod:`~kbgrules.kingdomino.positions`: kingdom grids (``kbg score``);
- :mod:`~kbgrules.kingdomino.setup`, :mod:`~kbgrules.kingdomino.simulate`: the setup sheet, random games;
- :mod:`~kbgrules.kingdomino.engine`: ``ENGINE``, how the core reaches all of it.
"""

from kbgrules.kingdomino.engine import ENGINE

__all__ = ["ENGINE"]
