"""No Thanks! (Thorsten Gimmler, Amigo 2004) for kbg, as a plug-in game.

The distribution registers the game under the entry-point group ``kbgrules.games`` (see its
``pyproject.toml``); kbg reads ``rules_data/`` from this package's folder and plays the game through
``ENGINE``:

- :mod:`~kbg_nothanks.model`: the ruleset (the deck, the chips per player count, the scoring);
- :mod:`~kbg_nothanks.state`: the game state and its moves;
- :mod:`~kbg_nothanks.game`: the game object for code (the Game protocol);
- :mod:`~kbg_nothanks.chance`: the chance events and their odds;
- :mod:`~kbg_nothanks.log`: reading and checking logs; :mod:`~kbg_nothanks.result`: the checked result;
- :mod:`~kbg_nothanks.setup`, :mod:`~kbg_nothanks.simulate`: the setup sheet, random games;
- :mod:`~kbg_nothanks.engine`: ``ENGINE``, how kbg reaches all of it.
"""

from kbg_nothanks.engine import ENGINE

__all__ = ["ENGINE"]
