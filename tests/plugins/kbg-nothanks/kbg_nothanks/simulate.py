"""Random legal No Thanks! games written as logs (``kbg simulate nothanks``): every decision drawn
uniformly from the legal ones, every chance event by its probability, seeded."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kbg_nothanks.game import NoThanksGame
from kbg_nothanks.model import NoThanksRuleset
from kbgrules.core.logfile import FORMAT_VERSION
from kbgrules.core.simulate import DEFAULT_NAMES
from kbgrules.errors import KbgError

NAMES = (*DEFAULT_NAMES, "Gus")  # up to seven players


def simulate_nothanks(players: int, seed: int, edition: str | None = None, variants: Sequence[str] = (),
                      names: Sequence[str] | None = None, rules_dirs: Sequence[str] = ()) -> str:
    """A complete random game log, the removed cards stated, ending with score and winner checkpoints."""
    from kbgrules.core.load import load

    rs = load("nothanks", edition=edition, variants=variants, players=players, rules_dirs=rules_dirs)
    assert isinstance(rs, NoThanksRuleset)
    names = tuple(names or NAMES[:players])
    if len(names) != players or len(set(names)) != players:
        raise KbgError(f"{players} players need {players} different names, not {', '.join(names)}", code="usage")
    game = NoThanksGame(rs, names)
    rng = random.Random(seed)
    while not game.is_over():
        game.push(game.sample_chance(rng) if game.is_chance() else rng.choice(game.legal_moves()))
    out = game.outcome()
    assert out is not None
    head = [f"# random legal game: kbg simulate {rs.game.id} --players {players} --seed {seed}",
            f"@kbg {FORMAT_VERSION}"]
    lines = game.log_text().splitlines()
    lines += [f"expect score {s.name} {s.score}" for s in out.standings]
    lines.append("expect winner " + " ".join(out.winners))
    return "\n".join([*head, *lines]) + "\n"
